import ArgumentParser
import DeeplinkerClient
import DeeplinkerProtocol

/// `deeplinker notify ID PAYLOAD_JSON [--action KEY]`: the user clicked a notification.
struct NotifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify",
        abstract: "Report a click on a notification with this payload.",
        discussion: """
            EXAMPLES:
              deeplinker notify com.bestrecipes.App '{"type": "recipe", "id": "7"}'
              deeplinker notify com.example.Apartments '{"data": {"messageId": "1"}}' --action reply
            """)

    @Argument(help: "The app id.") var appID: String
    @Argument(help: "The notification payload, a JSON object.") var payload: String
    @Option(name: .long, help: ArgumentHelp("The action key clicked (default: the notification body).", valueName: "KEY"))
    var action = "default"
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        var platform = DaemonSession.platformData()
        platform[PlatformDataKey.action] = action
        let reply = try await DaemonSession.run(options) { [platform] in
            try await $0.invoke(appID: appID, source: "notification", input: payload, platformData: platform)
        }
        InvocationOutput(appID: appID, reply: reply).print(json: options.json)
    }
}
