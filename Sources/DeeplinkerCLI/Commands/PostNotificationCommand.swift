import ArgumentParser
import DeeplinkerClient

/// `deeplinker post-notification ID SUMMARY BODY PAYLOAD_JSON`: shows a notification whose
/// click invokes the app with the payload.
struct PostNotificationCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "post-notification",
        abstract: "Show a desktop notification that invokes the app with PAYLOAD_JSON when clicked.",
        discussion: """
            EXAMPLE:
              deeplinker post-notification com.bestrecipes.App 'New recipe' 'Try the ratatouille' '{"type": "recipe", "id": "7"}'
            """)

    @Argument(help: "The app id.") var appID: String
    @Argument(help: "The notification's summary (title).") var summary: String
    @Argument(help: "The notification's body.") var body: String
    @Argument(help: "The payload, a JSON object.") var payload: String
    @OptionGroup var options: GlobalOptions

    struct JSONOutput: Codable {
        var notificationID: UInt32
        enum CodingKeys: String, CodingKey { case notificationID = "notification_id" }
    }

    func run() async throws {
        let id = try await DaemonSession.run(options) {
            try await $0.postNotification(appID: appID, summary: summary, body: body, payloadJSON: payload)
        }
        if options.json { return Output.json(JSONOutput(notificationID: id)) }
        Output.line("notification \(id)")
    }
}
