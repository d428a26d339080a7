#!/usr/bin/env bash
# One entry point for a fresh machine: sets everything up (system packages, virtual
# environment, Python packages, compiled word list) and then runs the referee or the tests.
#   ./dev.sh run [--host H] [--port P]   set up, then start the web app on http://127.0.0.1:8550
#   ./dev.sh test [pytest args]          set up, then run the whole test suite
#   ./dev.sh setup                       set up only
# Run again it is idempotent and quick: each step checks first and does nothing when done.
set -euo pipefail
cd "$(dirname "$0")"
VENV=.venv
PY=${PYTHON:-python3}

need_apt=()
command -v tesseract >/dev/null 2>&1 || need_apt+=(tesseract-ocr tesseract-ocr-eng)
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
# Fonts so Chromium can render text in browser tests and screenshots.
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need_apt+=(fonts-dejavu-core)
# More typefaces for the letters vision/train.py renders when it retrains the reader (not needed to read).
[ -e /usr/share/fonts/opentype/urw-base35/URWGothic-Book.otf ] || need_apt+=(fonts-urw-base35)
[ -e /usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf ] || need_apt+=(fonts-liberation)
[ -e /usr/share/fonts/truetype/freefont/FreeSans.ttf ] || need_apt+=(fonts-freefont-ttf)

setup_system() {
    if [ ${#need_apt[@]} -gt 0 ]; then
        echo "setup: installing system packages: ${need_apt[*]}" >&2
        SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
        $SUDO apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
    fi
}

setup_python() {
    [ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
    # Reinstall only when the dependency list changed since the last successful install.
    local stamp="$VENV/.installed-$(sha1sum pyproject.toml | cut -c1-12)"
    if [ ! -e "$stamp" ]; then
        echo "setup: installing Python packages into $VENV" >&2
        "$VENV/bin/python" -m pip install -q --upgrade pip >/dev/null
        "$VENV/bin/python" -m pip install -q -e '.[dev]'
        rm -f "$VENV"/.installed-*
        touch "$stamp"
    fi
}

setup() {
    setup_system
    setup_python
}

cmd=${1:-run}; shift || true
case "$cmd" in
    setup) setup ;;
    run|app) setup; exec "$VENV/bin/companion" app "$@" ;;
    test)
        setup
        export OMP_THREAD_LIMIT=1
        set +e
        "$VENV/bin/python" -m pytest "$@"
        rc=$?
        set -e
        # pytest exits 5 when it collected no test: that is a failure of the suite, not a pass.
        if [ $rc -eq 5 ]; then echo "test: pytest collected no tests" >&2; exit 1; fi
        exit $rc ;;
    *) echo "usage: ./dev.sh run|test|setup" >&2; exit 2 ;;
esac
