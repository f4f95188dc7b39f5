import Testing
@testable import DeeplinkerDaemon

/// Where each route folder is watched: the folder itself, or its nearest existing ancestor
/// awaiting the name of the next component (inline fixtures, no file system).
struct WatchPlanTests {
    /// The plan over a file system holding just `existing`.
    static func plan(_ targets: [String], existing: Set<String>) -> WatchPlan {
        WatchPlan(targets: targets) { existing.contains($0) }
    }

    @Test func anExistingFolderIsWatchedDirectly() {
        let plan = Self.plan(["/h/.config/deeplinker/apps"], existing: ["/h", "/h/.config", "/h/.config/deeplinker", "/h/.config/deeplinker/apps"])
        #expect(plan.watches == ["/h/.config/deeplinker/apps": .init(isTarget: true)])
        #expect(plan.missing.isEmpty)
        #expect(plan.isTarget("/h/.config/deeplinker/apps"))
    }

    @Test func aMissingFolderIsAwaitedInItsNearestExistingParent() {
        let plan = Self.plan(
            ["/h/.config/deeplinker/apps", "/usr/share/deeplinker/apps"], existing: ["/h", "/h/.config", "/usr", "/usr/share"])
        #expect(plan.watches == ["/h/.config": .init(awaiting: ["deeplinker"]), "/usr/share": .init(awaiting: ["deeplinker"])])
        #expect(plan.missing == ["/h/.config/deeplinker/apps": "/h/.config", "/usr/share/deeplinker/apps": "/usr/share"])
        #expect(!plan.isTarget("/h/.config"))
    }

    @Test func onlyTheNextComponentLeadsTowardAMissingFolder() {
        let plan = Self.plan(["/h/.config/deeplinker/apps"], existing: ["/h", "/h/.config"])
        #expect(plan.leadsToward("deeplinker", in: "/h/.config"))
        #expect(!plan.leadsToward("unrelated.conf", in: "/h/.config"))
        #expect(!plan.leadsToward("apps", in: "/h/.config"))
        #expect(!plan.leadsToward(".config", in: "/h"))
        #expect(!plan.leadsToward("deeplinker", in: "/h"))
    }

    @Test func eachLevelThatAppearsMovesTheWatchDown() {
        let targets = ["/h/.config/deeplinker/apps"]
        var existing: Set<String> = ["/h"]
        #expect(Self.plan(targets, existing: existing).watches == ["/h": .init(awaiting: [".config"])])
        existing.insert("/h/.config")
        #expect(Self.plan(targets, existing: existing).watches == ["/h/.config": .init(awaiting: ["deeplinker"])])
        existing.insert("/h/.config/deeplinker")
        #expect(Self.plan(targets, existing: existing).watches == ["/h/.config/deeplinker": .init(awaiting: ["apps"])])
        existing.insert("/h/.config/deeplinker/apps")
        #expect(Self.plan(targets, existing: existing).watches == ["/h/.config/deeplinker/apps": .init(isTarget: true)])
    }

    @Test func theRootIsTheLastResort() {
        let plan = Self.plan(["/nowhere/apps"], existing: [])
        #expect(plan.watches == ["/": .init(awaiting: ["nowhere"])])
        #expect(plan.missing == ["/nowhere/apps": "/"])
    }

    @Test func oneDirectoryServesSeveralFolders() {
        // A route folder that is also the parent of a missing one, and a parent awaiting two names.
        let plan = Self.plan(["/c/apps", "/c/apps/more/apps", "/c/x/apps", "/c/y/apps"], existing: ["/c", "/c/apps"])
        #expect(plan.watches == ["/c/apps": .init(isTarget: true, awaiting: ["more"]), "/c": .init(awaiting: ["x", "y"])])
    }

    @Test func pathsAreNormalized() {
        let plan = Self.plan(["/c//deeplinker/./apps/"], existing: ["/c"])
        #expect(plan.missing == ["/c/deeplinker/apps": "/c"])
        #expect(WatchPlan.normalized("/a//b/./") == "/a/b")
        #expect(WatchPlan.normalized("/") == "/")
    }
}
