// Stand-in for gi://Shell: a window tracker that answers from the stand-in window's fields.
const tracker = {
    get_window_app(win) {
        if (!win.trackerId)
            return null;
        return {get_id: () => win.trackerId, get_app_info: () => (win.trackerHasEntry ? {} : null)};
    },
};
export default {WindowTracker: {get_default: () => tracker}};
