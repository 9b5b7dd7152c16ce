#!/usr/bin/env bash
# Takes the docs' VisualVM screenshots of the sample app running with the agent and a JFR
# recording, under a virtual X server: docs/img/visualvm-overview.png (the application, its
# -javaagent and -XX:StartFlightRecording arguments), visualvm-threads.png (Spool's threads) and
# visualvm-jfr.png (the recording dumped with jcmd and opened in VisualVM's JFR viewer).
# Needs Debian's visualvm (2.1.5), default-jdk-headless (the launcher looks for
# /usr/lib/jvm/default-java with javac), xvfb, xdotool and imagemagick: installed here when missing.
# The first start of VisualVM asks to accept its licence (GPLv2 with the Classpath exception):
# running this script clicks "I Accept" in a throw-away VisualVM user folder.
# Clicks go to fixed positions of VisualVM's 1280x900 layout; look at the images afterwards.
#
# Debian's VisualVM 2.1.5-1 has the JFR viewer module but no JFR snapshot loader: visualvm-jfr.png
# shows "Failed to read the JFR snapshot. Please install the VisualVM-JFR-Generic snapshot loader
# using Tools | Plugins", and the plugin centre is not reachable here (README "Spool in JFR" says
# how to read Spool's events instead: `jfr print`, JDK Mission Control).
#
# Usage (repository root, after `mvn -B -q -DskipTests package`): scripts/visualvm-screenshots.sh
set -euo pipefail
cd "$(dirname "$0")/.."
AGENT=agent/target/spool-agent.jar
APP=sample-app/target/spool-sample.jar
[[ -f $AGENT && -f $APP ]] || { echo "build first: mvn -B -q -DskipTests package" >&2; exit 1; }
if ! command -v visualvm >/dev/null || ! command -v Xvfb >/dev/null || ! command -v xdotool >/dev/null \
    || ! command -v import >/dev/null || [[ ! -x /usr/lib/jvm/default-java/bin/javac ]]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq visualvm default-jdk-headless xvfb xdotool imagemagick
fi
mkdir -p docs/img
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; sleep 2; rm -rf "$work"; }
trap cleanup EXIT

display=:$((90 + RANDOM % 9))
Xvfb "$display" -screen 0 1280x900x24 >/dev/null 2>&1 & pids+=($!)
export DISPLAY=$display

java -javaagent:$AGENT=spool.events.methods=dev.spool.sample.Emitter#emit,spool.events.file=$work/out/events.spool \
  -XX:StartFlightRecording=name=spool -jar $APP --out "$work/out" --jobs 8 --steps 300 --threads 2 --hold \
  > "$work/app.log" 2>&1 & app=$!; pids+=($app)
for _ in $(seq 300); do grep -q elapsedMillis "$work/app.log" && break; sleep 0.2; done
grep -q elapsedMillis "$work/app.log" || { echo "the sample app did not finish its run" >&2; cat "$work/app.log" >&2; exit 1; }
jcmd "$app" JFR.dump name=spool filename="$work/spool-sample.jfr" >/dev/null

vvm() { visualvm --userdir "$work/userdir" "$@"; }
vvm > "$work/visualvm.log" 2>&1 & pids+=($!)
await_window() { # await_window NAME: waits for a window whose name matches, prints its id
  local w=""
  for _ in $(seq 300); do w=$(xdotool search --name "$1" 2>/dev/null | head -1 || true); [[ -n $w ]] && break; sleep 0.5; done
  [[ -n $w ]] || { echo "no '$1' window appeared" >&2; cat "$work/visualvm.log" >&2; exit 1; }
  echo "$w"
}
click() { xdotool mousemove "$1" "$2" click 1; sleep "${3:-2}"; }
shot() { import -window root "docs/img/$1"; echo "wrote docs/img/$1"; }

# The licence dialog comes first (first start in this user folder): click "I Accept" where it
# sits until the main window exists (a click on the empty screen does nothing).
for _ in $(seq 60); do
  xdotool search --name "^VisualVM 2" >/dev/null 2>&1 && break
  click 785 721 5
done
main=$(await_window "^VisualVM 2")
sleep 10
xdotool windowsize "$main" 1280 900 windowmove "$main" 0 0
sleep 3
vvm --openpid "$app" >/dev/null 2>&1   # handed to the running VisualVM
sleep 20
shot visualvm-overview.png
click 497 99 15          # the application's Threads tab
shot visualvm-threads.png
vvm --openfile "$work/spool-sample.jfr" >/dev/null 2>&1
sleep 20
shot visualvm-jfr.png
