#!/usr/bin/env bash
# Builds one libFuzzer target and runs it for a given time.
#   scripts/fuzz.sh NAME SECONDS      NAME: fuzz-url-matching | fuzz-payload-mapping | fuzz-route-file | fuzz-dbus-surface | fuzz-native-host
# The corpus lives in fuzz-artifacts/NAME/corpus (gitignored, kept between runs); crash inputs go
# to fuzz-artifacts/NAME/crashes/. Extra libFuzzer flags may be passed in FUZZ_FLAGS.
set -euo pipefail

name=${1:?usage: scripts/fuzz.sh NAME SECONDS}
seconds=${2:?usage: scripts/fuzz.sh NAME SECONDS}
case "$name" in
  fuzz-url-matching|fuzz-payload-mapping|fuzz-route-file|fuzz-dbus-surface|fuzz-native-host) ;;
  *) echo "unknown fuzz target '$name'" >&2; exit 2 ;;
esac

cd "$(dirname "$0")/.."
swift build -c release --sanitize=fuzzer --product "$name" --scratch-path .build-fuzz

corpus="fuzz-artifacts/$name/corpus"
crashes="fuzz-artifacts/$name/crashes"
mkdir -p "$corpus" "$crashes"

# Seed an empty corpus with inputs that reach deep: the shipped route files, seed URLs and payloads.
if [ -z "$(ls -A "$corpus")" ]; then
  case "$name" in
    fuzz-route-file) cp Config/apps/*.toml "$corpus/" ;;
    # Every API method in the wire format and as a structure-aware pick; written by the target.
    fuzz-dbus-surface) DEEPLINKER_FUZZ_WRITE_SEEDS="$corpus" ".build-fuzz/release/$name" -runs=0 "$corpus" >/dev/null 2>&1 ;;
    fuzz-url-matching)
      i=0
      for u in 'a://item/12?flag=1' 'https://x.a.example/files/a%2Fb/c?v=07' 'https://bücher.example/' \
               'b:///x/y/z' 'shared://1/item/2?ref=0E9A2C1B-5F3D-4A6B-8C7D-1E2F3A4B5C6D' 'https://a.example/files/private/k'; do
        printf '%s' "$u" > "$corpus/seed$i"; i=$((i + 1))
      done ;;
    fuzz-payload-mapping)
      i=0
      for p in '{"type":"item","id":7,"data":{"kind":"x"}}' '{"kind":"chat","conversation":"c1"}' '{"link":"p://item/3"}' \
               '{"url":"p://item/1"}' '{"remote-notification":{"data":{"chat":5}}}' '{"user-activity":{"webpage-url":"https://p.example/item/2"}}' \
               '{"shortcut-item":"p.home"}' '{"a":[1,{"b":[null,true,-1.5e3]}],"s":"\ud83d\ude00"}'; do
        printf '%s' "$p" > "$corpus/seed$i"; i=$((i + 1))
      done ;;
    # Framed messages as a browser writes them (native byte order), good and bad.
    fuzz-native-host)
      i=0
      for m in '{"type":"claims"}' '{"type":"open","url":"https://www.a.example/item/2?x=1","from":"https://b.example/"}' \
               '{"type":"open","url":"https://b.example/","from":null}' '{"type":"open","url":"https://xn--bcher-kva.example/"}' \
               '{broken' '{"type":"nope"}' '[1,{"a":"\u2028"}]' '{"type":"approve","app":"com.fuzz.B","domain":"b.example"}' \
               '{"type":"revoke","app":"com.fuzz.E","domain":"e.example"}'; do
        python3 -c 'import struct,sys; m=sys.argv[1].encode(); sys.stdout.buffer.write(struct.pack("=I",len(m))+m)' "$m" > "$corpus/seed$i"
        i=$((i + 1))
      done
      # A long-lived host's stream: many frames, good and bad, one after another.
      cat "$corpus"/seed* "$corpus"/seed* > "$corpus/stream" ;;
  esac
fi

# Let libFuzzer, not the Swift backtracer, handle crashes, so it saves the crashing input.
export SWIFT_BACKTRACE=enable=no
# shellcheck disable=SC2086
exec ".build-fuzz/release/$name" "$corpus" -max_total_time="$seconds" -max_len=4096 -rss_limit_mb=4096 \
  -artifact_prefix="$crashes/" -print_final_stats=1 ${FUZZ_FLAGS:-}
