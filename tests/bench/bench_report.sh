#!/bin/sh
# The HTML report: `run --report DIR` writes one self-contained, well-formed
# page with the environment, the claim audit, every experiment's tables, a
# latency chart per experiment with distribution rows and the latency/memory
# overview; `report FILE DIR` rebuilds the same page from the saved JSON;
# strings from the JSON are escaped; a missing gnuplot costs the charts only.
# Finally headless Chromium loads the page: no console message, a screenshot.
# Exit 77 (CTest: skipped) when Chromium is not installed, after every other
# check has passed.
#   bench_report.sh RTIPC_BENCH WORKDIR
set -u
bench=$1 dir=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
count() { grep -o -- "$1" "$2" | wc -l; }   # occurrences, not lines

rm -rf "$dir"
mkdir -p "$dir" || fail "cannot create $dir"
with_dist="queue-latency mechanism-compare notify-vs-sem"
ids="$with_dist footprint"
# shellcheck disable=SC2086
"$bench" run --quick --no-progress --json "$dir/run.json" --report "$dir/run" $ids \
    >"$dir/run.txt" 2>"$dir/run.err" || { cat "$dir/run.err" >&2; fail "run --report exited $?"; }
page=$dir/run/index.html
[ -s "$page" ] || fail "run --report wrote no $page"

# The published figures stand beside the rows that measure the same span
# (on Linux, rtipc's objects), in the console tables and the page, labelled
# with the report and board; they never enter the JSON.
grep -q "^  ^ published (ESP32-WROOM-32E): 2.8 us +-0.6, report 1" "$dir/run.txt" ||
    fail "the console table does not show report 1's queue latency beside queue-latency's row"
grep -q "^  ^ published (ESP32-WROOM-32): 15.2 us, report 2" "$dir/run.txt" ||
    fail "the console table does not show report 2's semaphore figure"
[ "$(count '<tr class="published">' "$page")" -ge 4 ] || fail "the page shows fewer than 4 published figures"
grep -q "published (ESP32-WROOM-32E): 2.8 us +-0.6" "$page" || fail "the page lacks report 1's queue latency"
grep -q "published (ESP32\|2.8 us +-0.6" "$dir/run.json" && fail "a published figure went into the JSON"

# Well-formed: the page is written in XML syntax, so an XML parser must
# accept it whole (the inline SVG included).
if command -v xmllint >/dev/null 2>&1; then
    xmllint --noout "$page" || fail "$page is not well-formed"
else
    echo "note: xmllint (libxml2-utils) not installed: structural checks only"
fi
head -n 1 "$page" | grep -q '^<!DOCTYPE html>$' || fail "no HTML5 doctype"
tail -n 1 "$page" | grep -q '^</html>$' || fail "page does not end with </html>"
for tag in section table svg figure details; do
    [ "$(count "<$tag[ >]" "$page")" -eq "$(count "</$tag>" "$page")" ] || fail "unbalanced <$tag>"
done

# Self-contained: nothing to fetch, no script.
if grep -n -i -E 'https?:|<script|<link|<img|<iframe|<object| src=' "$page" | head -5 | grep .; then
    fail "the page references something outside itself"
fi

# Content: every env field, the nine claims with verdicts, each experiment.
env_keys=$(sed -n '/^  "env": {$/,/^  },$/p' "$dir/run.json" | sed -n 's/^    "\([a-z_0-9]*\)":.*/\1/p')
[ "$(echo "$env_keys" | wc -w)" -ge 20 ] || fail "could not read env fields from run.json"
for key in $env_keys; do
    grep -q "<dt>$key</dt>" "$page" || fail "env field $key missing from the header"
done
grep -q '<table class="claims">' "$page" || fail "no claim table"
[ "$(count 'class="badge v-[a-z-]*"' "$page")" -eq 9 ] || fail "expected 9 claim verdict badges"
for id in $ids; do
    grep -q "<section class=\"experiment\" id=\"exp-$id\">" "$page" || fail "no section for $id"
done
grep -q '<table class="dist">' "$page" || fail "no distribution table"
grep -q '<th>p99 \[µs\]</th>' "$page" || fail "distribution table headers lack units"
grep -q '<table class="values">' "$page" || fail "no value table"
grep -q '<summary>Definitions' "$page" || fail "no collapsible definitions"

# Charts: one per experiment with distribution rows, plus the overview.
if command -v gnuplot >/dev/null 2>&1; then
    for id in $with_dist; do
        [ "$(count "data-chart=\"latency-tail\" data-experiment=\"$id\"" "$page")" -eq 1 ] ||
            fail "no latency chart for $id"
    done
    ! grep -q 'data-experiment="footprint"' "$page" || fail "footprint has no distribution, yet a chart"
    [ "$(count 'data-chart="latency-memory"' "$page")" -eq 1 ] || fail "no latency/memory overview chart"
    n_dist=$(echo "$with_dist" | wc -w)
    [ "$(count '<svg' "$page")" -eq $((n_dist + 1)) ] || fail "expected $((n_dist + 1)) <svg> charts"
    ! grep -q 'Chart not drawn' "$page" || fail "a chart was not drawn"
    ! grep -q 'warning' "$dir/run.err" || { cat "$dir/run.err" >&2; fail "run --report warned"; }
else
    echo "note: gnuplot not installed: chart checks skipped (the no-gnuplot path is checked below)"
fi

# The saved JSON gives the same page.
"$bench" report "$dir/run.json" "$dir/again" || fail "report exited $?"
cmp -s "$page" "$dir/again/index.html" || fail "report FILE DIR differs from run --report"

# Strings from the JSON are escaped (tables, charts' titles and labels alike).
sed "s|\"rtipc-sem\"|\"<i onmouseover=x>it's \&amp; sem</i>\"|g" "$dir/run.json" >"$dir/hostile.json"
grep -q 'onmouseover' "$dir/hostile.json" || fail "could not make the hostile JSON"
"$bench" report "$dir/hostile.json" "$dir/hostile" 2>"$dir/hostile.err" ||
    { cat "$dir/hostile.err" >&2; fail "report of hostile.json exited $?"; }
! grep -q '<i onmouseover' "$dir/hostile/index.html" || fail "a JSON string reached the page unescaped"
grep -q '&lt;i onmouseover=x&gt;it&#39;s &amp;amp; sem&lt;/i&gt;' "$dir/hostile/index.html" ||
    fail "the hostile mechanism name is not shown escaped"
if command -v xmllint >/dev/null 2>&1; then
    xmllint --noout "$dir/hostile/index.html" || fail "hostile page is not well-formed"
fi

# No gnuplot: the page is still written, says so, and the command succeeds.
PATH=/nonexistent "$bench" report "$dir/run.json" "$dir/nogp" 2>"$dir/nogp.err" || fail "report without gnuplot exited $?"
grep -q 'warning' "$dir/nogp.err" || fail "no warning about the missing gnuplot"
[ "$(count '<svg' "$dir/nogp/index.html")" -eq 0 ] || fail "charts without gnuplot?"
grep -q 'This report has no charts' "$dir/nogp/index.html" || fail "page does not say it lacks charts"
grep -q '<table class="claims">' "$dir/nogp/index.html" || fail "page without gnuplot lacks the claims"

# Rows of an experiment the file's "experiments" does not list get their
# own section, saying so, instead of vanishing.
one=$(dirname "$0")/data/one-core.json
sed '/{"id": "batching", "summary"/d' "$one" >"$dir/unlisted.json"
PATH=/nonexistent "$bench" report "$dir/unlisted.json" "$dir/unlisted" >/dev/null 2>&1 || fail "report of a file with unlisted rows"
grep -q 'id="exp-batching"' "$dir/unlisted/index.html" || fail "the unlisted experiment's rows vanished from the page"
grep -q 'does not list this experiment' "$dir/unlisted/index.html" || fail "the page does not say the experiment is unlisted"
grep -q '100x1B' "$dir/unlisted/index.html" || fail "the unlisted experiment's rows are not on the page"

# A FreeRTOS run's page names its scheduler as the target describes it,
# not the POSIX policy name the file also carries.
PATH=/nonexistent "$bench" report "$(dirname "$0")/../../docs/data/freertos-cm3.json" "$dir/cm3" >/dev/null 2>&1 ||
    fail "report of the recorded Cortex-M3 run"
grep -q '(FreeRTOS (fixed-priority preemptive))' "$dir/cm3/index.html" || fail "the page does not name FreeRTOS's scheduler"
grep -q '(SCHED_FIFO)' "$dir/cm3/index.html" && fail "the page calls FreeRTOS's scheduler SCHED_FIFO"

# The legends are as large as the chart's text (11 px), not smaller.
grep -q 'font-size="9.00"' "$page" && fail "a chart legend is drawn at 9 px"

# The environment's objects read as text, not raw JSON: memory as
# "kind resident, now 22.8 MiB, peak ...", cpus as "0, 1".
grep -q '<dt>memory</dt><dd>kind [a-z-]*, ' "$page" || fail "env.memory is not shown as text"
grep -q '<dd>{' "$page" && fail "an env value is shown as raw JSON"
grep -q '<dd>\[' "$page" && fail "an env value is shown as a raw JSON array"

# Stopped by SIGTERM while it draws (a gnuplot that stands still): no
# temporary is left in the report's folder, and the status is the signal's.
mkdir -p "$dir/slowgp" "$dir/stopped" "$dir/scratch"
printf '#!/bin/sh\ncase "$1" in --version) echo "gnuplot 5.4 (stand-in)";; *) sleep 30;; esac\n' >"$dir/slowgp/gnuplot"
chmod +x "$dir/slowgp/gnuplot"
TMPDIR="$dir/scratch" PATH="$dir/slowgp:$PATH" "$bench" report "$dir/run.json" "$dir/stopped" >/dev/null 2>&1 &
pid=$!
tries=0
until [ -n "$(find "$dir/stopped" -name '.*.tmp' 2>/dev/null)" ] || [ $tries -ge 100 ]; do
    sleep 0.1
    tries=$((tries + 1))
done
[ -n "$(find "$dir/stopped" -name '.*.tmp')" ] || fail "report had no temporary in its folder while it drew"
kill -TERM "$pid"
wait "$pid"; status=$?
command -v pkill >/dev/null && pkill -f "$dir/slowgp/gnuplot"
[ "$status" -eq 143 ] || fail "report stopped by SIGTERM exited $status, not 143"
left=$(find "$dir/stopped" -name '.*' ! -name '.' | head -3)
[ -z "$left" ] || fail "report stopped by SIGTERM left $left"
left=$(ls -A "$dir/scratch")
[ -z "$left" ] || fail "report stopped by SIGTERM left its gnuplot scratch directory: $left"

# Command line: usage errors, unreadable or invalid input 2 (as compare and
# audit: bench_input.sh checks the reasons), unwritable output 1, nothing
# left behind.
"$bench" report >/dev/null 2>&1; [ $? -eq 2 ] || fail "report without arguments: not status 2"
"$bench" report "$dir/run.json" >/dev/null 2>&1; [ $? -eq 2 ] || fail "report without DIR: not status 2"
"$bench" report --help | grep -q 'report RESULTS.json DIR' || fail "report --help"
"$bench" report "$dir/no-such.json" "$dir/x" 2>/dev/null; [ $? -eq 2 ] || fail "missing input: not status 2"
echo '{"schema": "something-else/1"}' >"$dir/foreign.json"
"$bench" report "$dir/foreign.json" "$dir/x" 2>/dev/null; [ $? -eq 2 ] || fail "foreign schema: not status 2"
echo 'not json' >"$dir/broken.json"
"$bench" report "$dir/broken.json" "$dir/x" 2>/dev/null; [ $? -eq 2 ] || fail "broken JSON: not status 2"
[ ! -e "$dir/x/index.html" ] || fail "a failed report left a page"
"$bench" report "$dir/run.json" /proc/rtipc-no-such-dir 2>/dev/null; [ $? -eq 1 ] || fail "unwritable DIR: not status 1"
# Options after the operands, and `--`.
"$bench" report "$dir/run.json" "$dir/opts" --version | grep -q '^rtipc-bench (rtipc) ' || fail "report ... --version"
"$bench" report -- "$dir/run.json" "$dir/dashdash" 2>/dev/null || fail "report -- FILE DIR exited $?"
cmp -s "$page" "$dir/dashdash/index.html" || fail "report -- FILE DIR differs from run --report"

# A browser opens it without complaint.
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
    echo "SKIP: chromium is not installed (Debian package chromium); every other report check passed"
    exit 77
fi
shot=$dir/report.png
timeout 180 "$browser" --headless --disable-gpu --no-sandbox --enable-logging=stderr --v=0 \
    --user-data-dir="$dir/chromium-profile" --screenshot="$shot" --window-size=1280,2000 \
    "file://$page" >"$dir/chromium.out" 2>"$dir/chromium.err"
status=$?
if grep -n 'CONSOLE' "$dir/chromium.err"; then
    fail "the page printed on the browser console"
fi
[ -s "$shot" ] || { tail -n 20 "$dir/chromium.err" >&2; fail "chromium (status $status) took no screenshot"; }
[ "$(head -c 4 "$shot" | od -An -c | tr -d ' ')" = '211PNG' ] || fail "the screenshot is not a PNG"
timeout 180 "$browser" --headless --disable-gpu --no-sandbox --enable-logging=stderr --v=0 \
    --user-data-dir="$dir/chromium-profile" --dump-dom "file://$page" >"$dir/dom.html" 2>"$dir/chromium-dom.err"
if grep -n 'CONSOLE' "$dir/chromium-dom.err"; then
    fail "the page printed on the browser console"
fi
grep -q 'class="claims"' "$dir/dom.html" || fail "the browser's DOM lacks the claim table"
[ "$(count '<svg' "$dir/dom.html")" -eq "$(count '<svg' "$page")" ] || fail "the browser's DOM lost a chart"
echo "rtipc-bench HTML report: ok ($(count '<svg' "$page") charts, screenshot $shot)"
