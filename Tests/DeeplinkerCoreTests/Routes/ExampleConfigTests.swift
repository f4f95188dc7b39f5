import Testing
@testable import DeeplinkerCore

/// The shipped Config/apps/ examples parse and route the seed examples as documented.
@Suite struct ExampleConfigTests {
    let registry: AppRegistry

    init() throws { registry = try RoutingFixtures.examples() }

    @Test func listsBothApps() {
        #expect(registry.appIDs == ["com.bestrecipes.App", "com.example.Apartments"])
    }

    @Test func bestRecipesUniversalLinks() throws {
        let home = try registry.resolveURL(appID: "com.bestrecipes.App", url: "https://bestrecipes.com/home")
        #expect(home.route == Route(target: "home", source: .universalLink))
        #expect(home.routePattern == "/home")

        let byID = try registry.resolveURL(appID: "com.bestrecipes.App", url: "https://bestrecipes.com/recipe?id=1234")
        #expect(byID.route == Route(target: "recipe", parameters: ["id": "1234"], source: .universalLink))

        let byCountry = try registry.resolveURL(appID: "com.bestrecipes.App", url: "https://bestrecipes.com/recipe?country=FR&limit=7")
        #expect(byCountry.route.parameters == ["country": "FR", "limit": "7"])
        #expect(byCountry.route.target == "recipe")
    }

    @Test func bestRecipesFoundByDomainAndScheme() throws {
        let web = try registry.resolveURL(appID: "", url: "https://www.bestrecipes.com/recipe/12")
        #expect(web.appID == "com.bestrecipes.App")
        #expect(web.route.parameters == ["id": "12"])
        let custom = try registry.resolveURL(appID: "", url: "bestrecipes://recipe/12")
        #expect(custom.route == Route(target: "recipe", parameters: ["id": "12"], source: .url))
        let bare = try registry.resolveURL(appID: "", url: "https://bestrecipes.com")
        #expect(bare.route.target == "home")
        #expect(bare.routePattern == "/")
    }

    @Test func bestRecipesExcludesAdmin() {
        let error = RoutingFixtures.error { () throws(DeeplinkerError) in
            try registry.resolveURL(appID: "com.bestrecipes.App", url: "https://bestrecipes.com/admin/users")
        }
        #expect(error?.name == "NoRoute")
    }

    @Test func bestRecipesPushes() throws {
        let home = try registry.resolveNotification(appID: "com.bestrecipes.App", payloadJSON: #"{"type":"home"}"#)
        #expect(home.route == Route(target: "home", source: .notification))
        let recipe = try registry.resolveNotification(appID: "com.bestrecipes.App", payloadJSON: #"{"type":"recipe","id":"1234"}"#)
        #expect(recipe.route == Route(target: "recipe", parameters: ["id": "1234"], source: .notification))
        let list = try registry.resolveNotification(appID: "com.bestrecipes.App", payloadJSON: #"{"type":"recipe","country":"FR","limit":7}"#)
        #expect(list.route.parameters == ["country": "FR", "limit": "7"])
    }

    @Test func bestRecipesShortcuts() throws {
        let favorites = try registry.resolveShortcut(appID: "com.bestrecipes.App", type: "com.bestrecipes.favorites")
        #expect(favorites.route == Route(target: "home", parameters: ["tab": "favorites"], source: .shortcut))
    }

    @Test func apartmentsDeepLinks() throws {
        let message = try registry.resolveURL(appID: "", url: "deeplinkTutorial://messages/1")
        #expect(message.appID == "com.example.Apartments")
        #expect(message.route == Route(target: "messages.details", parameters: ["id": "1"], source: .url))
        let request = try registry.resolveURL(appID: "com.example.Apartments", url: "deeplinkTutorial://request/1")
        #expect(request.route == Route(target: "request", parameters: ["id": "1"], source: .url))
    }

    @Test func apartmentsPushes() throws {
        let message = try registry.resolveNotification(appID: "com.example.Apartments", payloadJSON: #"{"data":{"messageId":"1"}}"#)
        #expect(message.route == Route(target: "messages.details", parameters: ["id": "1"], source: .notification))
        let request = try registry.resolveNotification(appID: "com.example.Apartments", payloadJSON: #"{"data":{"requestId":"1"}}"#)
        #expect(request.route == Route(target: "request", parameters: ["id": "1"], source: .notification))
    }

    @Test func apartmentsShortcuts() throws {
        let app = "com.example.Apartments"
        #expect(try registry.resolveShortcut(appID: app, type: "com.example.Apartments.activity").route.target == "activity")
        #expect(try registry.resolveShortcut(appID: app, type: "com.example.Apartments.messages").route.target == "messages")
        #expect(try registry.resolveShortcut(appID: app, type: "com.example.Apartments.newListing").route.target == "newListing")
        // A guest's app publishes only the first two: New Listing is then unavailable.
        let guest: Set<String> = ["com.example.Apartments.activity", "com.example.Apartments.messages"]
        let error = RoutingFixtures.error { () throws(DeeplinkerError) in
            try registry.resolveShortcut(appID: app, type: "com.example.Apartments.newListing", publishedShortcuts: guest)
        }
        #expect(error == .shortcutUnavailable(app: app, type: "com.example.Apartments.newListing"))
    }
}
