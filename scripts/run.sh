#!/usr/bin/env bash
# Serve the app and run a Celery worker on the embedded broker, together; Ctrl-C stops both.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
HOST=${HOST:-127.0.0.1}
PORT=${PORT:-8000}
pids=()
cleanup() {
  trap - INT TERM EXIT
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  echo "Dossier stopped."
}
trap cleanup INT TERM EXIT
# -B runs the beat schedule in this worker: the reconciler that re-queues stuck sheet renders.
.venv/bin/celery -A config worker -B --schedule var/celerybeat-schedule --loglevel=INFO --concurrency=2 &
pids+=($!)
echo
echo "Dossier: http://$HOST:$PORT/  (worker pid ${pids[0]}; Ctrl-C stops both)"
$PY manage.py runserver "$HOST:$PORT" --noreload &
pids+=($!)
wait -n "${pids[@]}"
