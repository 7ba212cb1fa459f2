#!/usr/bin/env bash
# Builds tests/consumer — a project of its own that uses bem — the two ways a
# researcher would, in a fresh temporary directory:
#   (i)  bem as a meson subproject (subprojects/bem -> the bem source tree):
#        the subproject must build nothing but the dependency;
#   (ii) an installed bem: the header-only install of
#        docs/using-the-headers.md (`meson install --no-rebuild --tags
#        devel`: headers and bem.pc, nothing built) into a temporary prefix,
#        then the consumer finds bem.pc through PKG_CONFIG_PATH and compiles
#        against the installed headers only. The example plugin is also built
#        out of tree with the command of examples/custom_task_plugin/README.md
#        and listed by an installed bem-bench. Nothing of bem is compiled
#        twice: that bem-bench is the main build's, installed with the
#        `runtime` tag into a staging folder (--destdir), and the install
#        plan is checked to tag every file devel, runtime or plugins.
# Usage: check.sh BEM_SOURCE_ROOT BEM_BUILD_DIR
set -euo pipefail

src=$(cd "${1:?usage: check.sh BEM_SOURCE_ROOT BEM_BUILD_DIR}" && pwd)
main_build=$(cd "${2:?usage: check.sh BEM_SOURCE_ROOT BEM_BUILD_DIR}" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bem-consumer.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
step() { printf '\n=== %s\n' "$*"; }
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }

copy_consumer() {
  mkdir -p "$1"
  cp "$src/tests/consumer/meson.build" "$src/tests/consumer/main.cpp" "$src/tests/consumer/old_paths.cpp" "$1/"
}

step "(i) bem as a subproject"
copy_consumer "$tmp/sub"
mkdir -p "$tmp/sub/subprojects"
ln -s "$src" "$tmp/sub/subprojects/bem"
meson setup "$tmp/sub/build" "$tmp/sub" --wrap-mode=nodownload --force-fallback-for=bem
targets=$(meson introspect --targets "$tmp/sub/build" |
  python3 -c 'import json, sys; print(" ".join(sorted(t["name"] for t in json.load(sys.stdin))))')
[[ "$targets" == "bem-consumer bem-consumer-old-paths" ]] ||
  fail "the bem subproject must build nothing but the dependency; targets: $targets"
echo "targets: $targets"
ninja -C "$tmp/sub/build" | tee "$tmp/sub/ninja.log"
"$tmp/sub/build/bem-consumer"
# The old paths build, run, and each warns with its new path.
"$tmp/sub/build/bem-consumer-old-paths"
for moved in "<bem/machine.hpp> is deprecated: include <bem/machine/machine.hpp>" \
             "<bem/parameters.hpp> is deprecated: include <bem/harness/parameters.hpp>" \
             "<bem/sequence_model.hpp> is deprecated: include <bem/harness/sequence_model.hpp>"; do
  grep -qF -- "$moved" "$tmp/sub/ninja.log" || fail "no deprecation warning: $moved"
done

step "(ii) installed bem through pkg-config"
meson setup "$tmp/bem-build" "$src" --prefix "$tmp/prefix" -Dtests=false --wrap-mode=nodownload
# Every installed file carries the tag docs/using-the-headers.md gives it.
meson introspect --install-plan "$tmp/bem-build" | python3 -c '
import json, sys
plan = json.load(sys.stdin)
untagged = []
for kind, entries in plan.items():
    for source, e in entries.items():
        dest, tag = e["destination"], e.get("tag")
        want = ("devel" if "{includedir}" in dest or dest.endswith(".pc")
                else "plugins" if "/bem/plugins" in dest or "/bem/rust_cargo" in dest
                else "runtime")
        if tag != want:
            untagged.append(f"{dest}: tag {tag!r}, want {want!r}")
if untagged:
    sys.exit("install tags:\n  " + "\n  ".join(untagged))
print("install plan: every file tagged devel, runtime or plugins")
'
meson install -C "$tmp/bem-build" --no-rebuild --quiet --tags devel
pc=$(find "$tmp/prefix" -name bem.pc -print -quit)
[[ -n "$pc" ]] || fail "meson install wrote no bem.pc under $tmp/prefix"
export PKG_CONFIG_PATH="$(dirname "$pc")"
echo "bem.pc: $pc"
cflags=$(pkg-config --cflags bem)
echo "pkg-config --cflags bem: $cflags"
[[ "$cflags" == *"-I$tmp/prefix/include/bem-0"* ]] || fail "Cflags do not point at the installed headers"
[[ -f "$tmp/prefix/include/bem-0/bem/plugin/abi.h" && -f "$tmp/prefix/include/bem-0/tasks/temporal.hpp" ]] ||
  fail "headers missing under $tmp/prefix/include/bem-0"

copy_consumer "$tmp/inst"
meson setup "$tmp/inst/build" "$tmp/inst" --wrap-mode=nodownload
ninja -C "$tmp/inst/build"
# The consumer compiled against the installed copy, never the source tree.
grep -q -- "-I$tmp/prefix/include/bem-0" "$tmp/inst/build/compile_commands.json" ||
  fail "the consumer did not use the installed headers"
if grep -q -- "$src/include" "$tmp/inst/build/compile_commands.json"; then
  fail "the consumer saw the source tree's headers"
fi
"$tmp/inst/build/bem-consumer"
"$tmp/inst/build/bem-consumer-old-paths"

step "(ii) the example plugin built out of tree against the installed bem (README command)"
mkdir -p "$tmp/mytask"
cp "$src/examples/custom_task_plugin/plugin.cpp" "$tmp/mytask/"
(cd "$tmp/mytask" &&
  c++ -std=c++20 -shared -fPIC -fvisibility=hidden -fno-gnu-unique plugin.cpp $(pkg-config --cflags --libs bem) -o bem_mytask.so)
# The libraries after the source: linked --as-needed, toml++ must stay NEEDED.
readelf -d "$tmp/mytask/bem_mytask.so" | grep -q 'NEEDED.*libtomlplusplus' ||
  fail "bem_mytask.so does not record toml++ as NEEDED (link order)"
nm -D --defined-only "$tmp/mytask/bem_mytask.so" | grep -q ' T bem_plugin_entry_v2$' ||
  fail "bem_mytask.so does not export bem_plugin_entry_v2"
meson install -C "$main_build" --no-rebuild --quiet --tags runtime --destdir "$tmp/staged"
bench=$(find "$tmp/staged" -type f -name bem-bench -perm -u+x -print -quit)
if [[ -n "$bench" ]]; then
  listing=$("$bench" --plugin-path "$tmp/mytask" list)
  echo "$listing"
  grep -q last_token_count <<<"$listing" || fail "bem-bench list does not show the out-of-tree plugin's task"
  grep -q -- "$tmp/mytask/bem_mytask.so" <<<"$listing" || fail "bem-bench list does not name the out-of-tree plugin's file"
else
  echo "skip: this build has no bem-bench to install, the plugin was only built"
fi
echo
echo "consumer: ok"
