// TEST ONLY: the floor of Den's activation budget (docs/benchmarks.md, "Activation"). Loading this
// file and calling `activate()` is what any extension costs the extension host; the activation test
// measures it next to Den's own load and activate, in the same run. Never shipped.
exports.activate = function activate() {};
exports.deactivate = function deactivate() {};
