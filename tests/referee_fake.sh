#!/bin/sh
# A fake UGI engine for tests/referee.rs, speaking just enough UGI to misbehave on cue.
#
#   sh referee_fake.sh LOGDIR LINEUP [--stubborn] ANSWER...
#
# Logs its pid and every line it gets to LOGDIR/<pid>.log, answers `go deploy` with
# `deploy LINEUP`, and each other `go` with the next ANSWER (the last one repeats):
#   crash    exit at once, without a word
#   silent   never answer (`stop` is ignored too)
#   other    `bestmove <other>`
# --stubborn ignores `quit` and the end of input, so only a kill ends it.
log="$1/$$.log"
deploy=$2
shift 2
stubborn=
if [ "$1" = --stubborn ]; then
    stubborn=1
    shift
fi
echo "pid $$" > "$log"
while IFS= read -r line; do
    printf '%s\n' "$line" >> "$log"
    case $line in
        ugi) echo "id name fake"; echo ugiok ;;
        isready) echo readyok ;;
        quit) [ -z "$stubborn" ] && exit 0 ;;
        "go deploy") echo "deploy $deploy" ;;
        go*)
            answer=$1
            [ $# -gt 1 ] && shift
            case $answer in
                crash) exit 3 ;;
                silent) ;;
                *) echo "bestmove $answer" ;;
            esac
            ;;
    esac
done
# End of input: a stubborn engine lingers, as the same process, until it is killed.
[ -n "$stubborn" ] && exec sleep 60
exit 0
