// Parses each file given as `module:PATH` (ES module) or `script:PATH` (GNOME 43-44 script) with
// SpiderMonkey's parser, without running it (its imports exist only inside GNOME Shell), and
// prints "parsed PATH" or "error PATH: message" for each.
//   gjs -m parse-check.js module:focus.js script:gnome-43/extension.js ...
import GLib from 'gi://GLib';
import System from 'system';

let failed = false;
for (const argument of ARGV) {
    const colon = argument.indexOf(':');
    const [kind, path] = [argument.slice(0, colon), argument.slice(colon + 1)];
    try {
        const text = new TextDecoder().decode(GLib.file_get_contents(path)[1]);
        Reflect.parse(text, {target: kind === 'module' ? 'module' : 'script', source: path});
        print(`parsed ${path}`);
    } catch (e) {
        failed = true;
        print(`error ${path}: ${e.message}`);
    }
}
if (failed)
    System.exit(1);
