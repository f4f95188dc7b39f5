import DeeplinkerCore
import TaskThreads

/// Watching a launch until it takes (SPEC §6, "A launch that does not take"): an app launched for
/// a route that is not running `launchGrace` later, or whose process ends unsuccessfully before it
/// became ready, is logged as a warning and said in the waiting route's `detail`.
extension DaemonCore {
    /// The launcher is done with `summons`: an `open` app's route goes out by the `Open` that
    /// starts it; any launch is checked again once its grace has passed.
    func launchStarted(_ summons: Summons, _ start: LaunchStart) {
        let how: String
        var launched: LaunchedApp?
        switch start {
        case .nothing:
            launchWatches[summons.appID] = nil
            return
        case .byDelivery(let description):
            how = description
            apply(engine.deliverByStarting(appID: summons.appID))
        case .started(let app):
            how = app.how
            launched = app
        }
        let grace = configuration.launchGrace
        // Not a tracked task: a stop does not wait for a check that would find nothing to do.
        Task { [weak self, launched] in
            guard (try? await TimerThread.shared.sleep(for: grace)) != nil else { return }
            self?.onLoop { core in core.checkLaunch(summons, how: how, launched: launched) }
        }
    }

    /// The grace of the launch `summons` asked for has passed: a launch that left the app not
    /// running (and no process of it alive) did not take.
    func checkLaunch(_ summons: Summons, how: String, launched: LaunchedApp?) {
        guard let requested = summons.launchRequestedAt, launchWatches[summons.appID] == requested else { return }
        if !engine.isNotRunning(summons.appID) || launched?.processRuns == true {
            launchWatches[summons.appID] = nil
            return
        }
        let ended = launched?.termination.map { ", and its process \($0)" } ?? ""
        launchDidNotTake(summons, reason: "it was started \(how) but is not running \(configuration.launchGrace) later\(ended)")
    }

    /// The launch `summons` asked for did not take: a warning in the log, and the waiting route's
    /// `detail` (the engine ignores it when the app runs by now or a later launch was asked for).
    func launchDidNotTake(_ summons: Summons, reason: String) {
        guard let requested = summons.launchRequestedAt, launchWatches[summons.appID] == requested,
            engine.isNotRunning(summons.appID)
        else { return }
        launchWatches[summons.appID] = nil
        logger.warning("\(summons.appID) did not start: \(reason); its route waits, and the next invocation launches it again")
        apply(engine.launchDidNotTake(appID: summons.appID, launchRequestedAt: requested, reason: reason))
    }
}
