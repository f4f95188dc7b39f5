import DBusKit
import DeeplinkerCLI
import DeeplinkerClient
import DeeplinkerDaemon
import Testing

/// The one list of SPEC §4's errors reaches every place that names them.
@Suite struct ErrorNameTests {
    @Test("every error has an exit status; RateLimited its own (11)")
    func exitStatuses() {
        let statuses = DeeplinkerErrorName.allCases.map(ExitStatus.forDeeplinkerError)
        #expect(!statuses.contains(.dbusError))
        #expect(ExitStatus.forDeeplinkerError(named: "RateLimited") == .rateLimited && ExitStatus.rateLimited.rawValue == 11)
        #expect(statuses.filter { $0 == .rateLimited }.count == 1)
        #expect(ExitStatus.table.contains("11 rate limited"))
    }

    @Test("the introspection XML lists every error, RateLimited included")
    func introspectionListsErrors() {
        for error in DeeplinkerErrorName.allCases {
            #expect(DeeplinkerAPI.introspectionXML.contains(error.dbusName))
        }
        #expect(DeeplinkerAPI.introspectionXML.contains("org.deeplinker.Error.RateLimited"))
    }

    @Test("the client library reads an error reply as the error it names")
    func clientReadsErrors() {
        let error = DBusError(name: "org.deeplinker.Error.RateLimited", message: "rate limited: 101 in a second")
        #expect(error.deeplinkerError == .rateLimited)
        #expect(DBusError.failed("x").deeplinkerError == nil)
    }
}
