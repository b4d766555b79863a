#!/usr/bin/env bash
# Serve the app (uvicorn, ASGI) and run the Celery workers (renders; webhooks) on the embedded broker,
# together; Ctrl-C stops them all.
# Quiet on purpose: once both answer, the last lines printed are the address and the demo logins
# (issue 30). Errors and warnings still show; LOG_LEVEL=INFO (or DEBUG) brings the chatter back.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
HOST=${HOST:-127.0.0.1}
PORT=${PORT:-8000}
# The per-job access log (dossier.job) is for operators; at the table it only buries the address.
export JOB_LOG_LEVEL=${JOB_LOG_LEVEL:-WARNING}
# So is the per-request access log (dossier.request): a page view with its panels and live feed is
# several lines, and ten of them pushed the address off the screen. REQUEST_LOG_LEVEL=INFO shows it.
export REQUEST_LOG_LEVEL=${REQUEST_LOG_LEVEL:-WARNING}
# A development machine often runs as root (a container); Celery's warning about it says nothing
# the developer can act on here.
export PYTHONWARNINGS=${PYTHONWARNINGS:-"ignore:You're running the worker with superuser privileges"}
pids=()
cleanup() {
  trap - INT TERM EXIT
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  echo "Dossier stopped."
}
# Ctrl-C (or a TERM) is how `make run` is meant to stop: a clean stop, said in one line, status 0.
trap 'cleanup; exit 0' INT TERM
trap cleanup EXIT
# A worker's stdout carries only its shutdown chatter ("Hitting Ctrl+C again...", "Warm shutdown"),
# printed on every Ctrl-C; its log (warnings and errors) goes to stderr, which stays on the screen.
# -B runs the beat schedule in this worker: the reconciler that re-queues stuck sheet renders.
# It takes the default queue (renders, exports); webhook deliveries have a worker of their own.
.venv/bin/celery --quiet -A config worker -B --schedule var/celerybeat-schedule -Q celery \
  -n worker@%h --loglevel="${LOG_LEVEL:-WARNING}" --concurrency=2 >/dev/null &
pids+=($!)
# Webhook deliveries wait on other people's servers (up to WEBHOOK_DEADLINE_SECONDS a try): threads,
# not processes, several at once, on their own queue, so a slow receiver never holds a render.
.venv/bin/celery --quiet -A config worker -Q webhooks -n webhooks@%h --pool=threads --concurrency=4 \
  --loglevel="${LOG_LEVEL:-WARNING}" >/dev/null &
pids+=($!)
# The ASGI server (config/asgi.py): each open campaign page holds its live feed (docs/live.md).
# Without Redis the feed polls the newest event id, so the worker's events ("sheet finished",
# "export ready": sheets/access.py tell_readers, archive/tasks.py) still reach the pages. No access log, as runserver's quiet mode before it.
.venv/bin/uvicorn config.asgi:application --host "$HOST" --port "$PORT" --no-access-log \
  --log-level "$(echo "${LOG_LEVEL:-WARNING}" | tr '[:upper:]' '[:lower:]')" --timeout-graceful-shutdown 3 &
pids+=($!)
# Wait until the server listens (a connection only: a request would print an access line), then
# say where it is and how to log in: the last thing on the screen.
for _ in $(seq 1 300); do
  if $PY -c "import socket, sys; socket.create_connection((sys.argv[1], int(sys.argv[2])), 1).close()" \
    "$HOST" "$PORT" 2>/dev/null; then
    break
  fi
  kill -0 "${pids[2]}" 2>/dev/null || break
  sleep 0.2
done
echo
$PY manage.py seed_demo --logins
echo "Dossier: http://$HOST:$PORT/  (worker pids ${pids[0]} and ${pids[1]}; Ctrl-C stops all)"
wait -n "${pids[@]}"
