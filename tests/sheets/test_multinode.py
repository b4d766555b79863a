"""Two web nodes and two workers, each with its own empty var/, sharing PostgreSQL, Redis and S3.

The S3-compatible server is moto's standalone server (``moto_server``, from PyPI): no real one
installs here from Debian or PyPI. Every process is started with the commands deploy/ uses
(gunicorn config.asgi, celery -A config worker) and the environment alone, as a node starts.

- A sheet asked for through web node A is rendered by whichever worker takes it, and downloaded
  through web node B: the bytes downloaded equal the bytes stored in the bucket.
- A worker killed in the middle of a render leaves a job that the other worker completes.
- The same test with the local-folder storage FAILS (the ``local`` case, expected to fail): node B
  cannot serve what a worker wrote into its own var/. That is what shows the test tests sharing.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import boto3
import pytest
from knox.models import AuthToken

from sheets.models import SheetRender
from tests.sheets.conftest import pdf_text
from tests.sheets.test_worker_kill import database_url

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
BUCKET = "dossier-sheets"
BUNDLE_SIZE = 10  # a render of a few seconds: a "middle" to kill the worker in
#: The commands deploy/ runs (deploy/dossier-web.service, deploy/dossier-worker.service,
#: deploy/dossier-webhooks.service; the units' ${VARIABLES} come from their environment file), one
#: process each here: the machine has 2 cores.
WEB_ARGS = ["config.asgi", "--config", "deploy/gunicorn.conf.py"]
WORKER_ARGS = [
    "-A",
    "config",
    "worker",
    "--loglevel=INFO",
    "--concurrency=${WORKER_CONCURRENCY}",
    "--without-gossip",
    "--without-mingle",
    "-Q",
    "celery",
]
#: deploy/dossier-webhooks.service: webhook deliveries on their own queue, threads (they wait on
#: other people's servers), so they never hold the workers above (issue 47).
WEBHOOK_WORKER_ARGS = [
    "-A",
    "config",
    "worker",
    "--loglevel=INFO",
    "--pool=threads",
    "--concurrency=${WEBHOOK_CONCURRENCY}",
    "--without-gossip",
    "--without-mingle",
    "-Q",
    "webhooks",
]
NODE_ENV = {"WEB_CONCURRENCY": "1", "WORKER_CONCURRENCY": "1"}
METRICS_TOKEN = "multi-node-metrics-token"
#: Ports for this test's servers (the range this project's tests keep to), a share of it for each
#: pytest-xdist worker: a port probed free can be taken by another worker's node before ours binds
#: it, and then "our" node's address answered with the other worker's node (and its database).
PORTS_PER_WORKER = 25
_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
_FIRST = 18100 + PORTS_PER_WORKER * (int(_WORKER) % 4 if _WORKER.isdigit() else 0)
PORTS = range(_FIRST, _FIRST + PORTS_PER_WORKER)


class NodeTimeout(Exception):
    """A node did not come up or a job did not finish in time (not the sharing failure itself)."""


def free_port(taken: set[int]) -> int:
    for port in PORTS:
        if port in taken:
            continue
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
        taken.add(port)
        return port
    raise NodeTimeout(f"no free port in {PORTS.start}-{PORTS.stop - 1}")


def wait_for(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise NodeTimeout(f"timed out waiting for {what}")


@dataclass
class Node:
    name: str
    process: subprocess.Popen
    log: Path
    var_dir: Path

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


@dataclass
class Cluster:
    tmp: Path
    env: dict[str, str]
    nodes: dict[str, Node] = field(default_factory=dict)
    ports: set[int] = field(default_factory=set)

    def start(self, name: str, command: list[str], extra_env: dict | None = None) -> Node:
        var_dir = self.tmp / name  # each node's own, empty var/
        var_dir.mkdir()
        metrics_dir = self.tmp / f"{name}-prometheus"  # systemd's RuntimeDirectory in deploy/
        metrics_dir.mkdir()
        log = self.tmp / f"{name}.log"
        with open(log, "w") as handle:
            process = subprocess.Popen(
                command,
                cwd=ROOT,
                env={
                    **self.env,
                    "DOSSIER_VAR_DIR": str(var_dir),
                    "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir),
                    **(extra_env or {}),
                },
                stdout=handle,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.nodes[name] = Node(name, process, log, var_dir)
        return self.nodes[name]

    def answers(self, name: str, base: str) -> bool:
        """Whether node ``name`` answers at ``base``; a node that has exited fails at once (its port
        may answer for some other process)."""
        if self.nodes[name].process.poll() is not None:
            raise NodeTimeout(f"{name} exited: {self.nodes[name].log_text()[-2000:]}")
        return answers(base)

    def kill(self, name: str) -> None:
        node = self.nodes[name]
        if node.process.poll() is None:
            os.killpg(node.process.pid, signal.SIGKILL)
            node.process.wait(timeout=10)

    def stop_all(self) -> None:
        """Killed outright: a test node has nothing worth a graceful stop, and that saves seconds."""
        for name in self.nodes:
            self.kill(name)

    def dump_logs(self) -> None:
        for node in self.nodes.values():
            print(f"----- {node.name} -----\n{node.log_text()[-3000:]}")


def http(base: str, method: str, path: str, token: str, body: dict | None = None, request_id: str = ""):
    """(status, headers, bytes) of one request to a node."""
    headers = {"Authorization": f"Token {token}", "Accept": "application/json"}
    if request_id:
        headers["X-Request-ID"] = request_id
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(base + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def answers(base: str) -> bool:
    try:
        with urllib.request.urlopen(base + "/readyz", timeout=2) as response:
            return response.status == 200
    except (OSError, urllib.error.URLError):
        return False


def status_through(base: str, token: str, render_id: int) -> dict:
    code, _, body = http(base, "GET", f"/api/v1/sheets/{render_id}/", token)
    assert code == 200, body[:300]
    return json.loads(body)


@pytest.fixture
def cluster(transactional_db, tmp_path, request):
    broker = os.environ.get("CELERY_BROKER_URL", "")
    if not broker.startswith("redis://"):
        pytest.fail("the services layer needs CELERY_BROKER_URL=redis://... (see .ci/run)")
    storage = request.param
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("AWS_", "DJANGO_", "PYTEST_")) and key not in ("MEDIA_ROOT", "DOSSIER_STORAGE")
    }
    env.update(
        {
            # Production settings, as deploy/ starts a node (plain HTTP behind the proxy).
            "DEBUG": "0",
            "SECRET_KEY": "multi-node-test-key-0123456789abcdefghijklmnopqrstuvwxyz",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_SSL_REDIRECT": "false",
            "DATABASE_URL": database_url(),
            "CELERY_BROKER_URL": broker,
            # Redis hands a killed worker's unacknowledged job to the other one after this long.
            "CELERY_VISIBILITY_TIMEOUT": "3",
            "CELERY_UNACKED_RESTORE_SECONDS": "1",
            "SHEET_RENDER_DEADLINE_SECONDS": "3600",  # the reconciler stays out: redelivery alone
            "LOG_FORMAT": "json",
            "LOG_LEVEL": "INFO",
            "DOSSIER_STORAGE": storage,
            "METRICS_TOKEN": METRICS_TOKEN,
            **NODE_ENV,
        }
    )
    built = Cluster(tmp_path, env)
    try:
        if storage == "s3":
            port = free_port(built.ports)
            built.start("s3", [str(BIN / "moto_server"), "-H", "127.0.0.1", "-p", str(port)])
            endpoint = f"http://127.0.0.1:{port}"
            env.update(
                {
                    "AWS_S3_ENDPOINT_URL": endpoint,
                    "AWS_STORAGE_BUCKET_NAME": BUCKET,
                    "AWS_ACCESS_KEY_ID": "dossier",
                    "AWS_SECRET_ACCESS_KEY": "dossier-secret",
                    "AWS_S3_REGION_NAME": "us-east-1",
                }
            )
            built.bucket = boto3.client(
                "s3",
                endpoint_url=endpoint,
                aws_access_key_id="dossier",
                aws_secret_access_key="dossier-secret",
                region_name="us-east-1",
            )
        for name in ("web_a", "web_b"):
            port = free_port(built.ports)
            built.start(name, [str(BIN / "gunicorn"), *WEB_ARGS, "--bind", f"127.0.0.1:{port}"])
            setattr(built, name, f"http://127.0.0.1:{port}")
        for name in ("worker_1", "worker_2"):
            args = [
                arg.replace("${WORKER_CONCURRENCY}", NODE_ENV["WORKER_CONCURRENCY"]) for arg in WORKER_ARGS
            ]
            built.start(name, [str(BIN / "celery"), *args, "-n", f"{name}@%h"])
        if storage == "s3":  # while the nodes start
            wait_for(lambda: _bucket_made(built.bucket), 30, "the S3 server")
        wait_for(
            lambda: built.answers("web_a", built.web_a) and built.answers("web_b", built.web_b),
            45,
            "both web nodes to be ready",
        )
        wait_for(
            lambda: all(" ready." in built.nodes[w].log_text() for w in ("worker_1", "worker_2")),
            45,
            "both workers to be ready",
        )
        yield built
    except BaseException:
        built.dump_logs()
        raise
    finally:
        built.stop_all()


def _metrics(base: str) -> str:
    request = urllib.request.Request(base + "/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.read().decode()


def _bucket_made(client) -> bool:
    try:
        client.create_bucket(Bucket=BUCKET)
    except Exception as error:  # the server is not up yet: connection refused
        return "BucketAlready" in type(error).__name__ or "BucketAlready" in str(error)
    return True


def stored_bytes(cluster: Cluster, render: SheetRender) -> bytes:
    return cluster.bucket.get_object(Bucket=BUCKET, Key=render.file.name)["Body"].read()


def worker_that_started(cluster: Cluster, render_id: int) -> str | None:
    line = f"sheet render {render_id} started"
    for name in ("worker_1", "worker_2"):
        if name in cluster.nodes and line in cluster.nodes[name].log_text():
            return name
    return None


@pytest.mark.services
@pytest.mark.parametrize(
    "cluster",
    [
        "s3",
        pytest.param(
            "local",
            marks=pytest.mark.xfail(
                strict=True,
                raises=AssertionError,
                reason="each node's own var/: web node B cannot serve what a worker wrote",
            ),
        ),
    ],
    indirect=True,
)
def test_nodes_share_only_database_broker_and_object_store(cluster, world, make_character):
    try:
        run_scenario(cluster, world, make_character)
    except BaseException:
        cluster.dump_logs()  # the nodes' own lines, for whoever reads a failed run
        raise


def run_scenario(cluster, world, make_character):
    player = world.users["player"]
    _, token = AuthToken.objects.create(user=player)  # knox hands out the key once, here
    character = make_character(world.campaign, player, name="Harry Adams")

    # Asked for through node A, rendered by whichever worker takes it, downloaded through node B.
    code, _, body = http(
        cluster.web_a,
        "POST",
        f"/api/v1/campaigns/{world.campaign.pk}/sheets/",
        token,
        {"kind": "character", "character": character.pk},
        request_id="multi-node-1",
    )
    assert code == 202, body[:300]
    render_id = json.loads(body)["id"]
    wait_for(
        lambda: status_through(cluster.web_b, token, render_id)["status"] == "done", 60, "the first render"
    )
    code, headers, downloaded = http(cluster.web_b, "GET", f"/api/v1/sheets/{render_id}/download/", token)
    assert code == 200, f"node B could not serve the PDF a worker stored: {code} {downloaded[:200]!r}"
    render = SheetRender.objects.get(pk=render_id)
    assert downloaded == stored_bytes(cluster, render)
    assert "Harry Adams" in pdf_text(downloaded)[1]
    # The request id given to node A is on the job's lines in the worker that ran it.
    rendered_by = worker_that_started(cluster, render_id)
    job_lines = [
        json.loads(line) for line in cluster.nodes[rendered_by].log_text().splitlines() if "{" in line
    ]
    assert any(
        entry.get("request_id") == "multi-node-1" and entry.get("render_id") == render_id
        for entry in job_lines
    )

    # A worker killed in the middle of a render: the other one completes the job.
    for index in range(BUNDLE_SIZE):
        make_character(world.campaign, world.users["other_player"], name=f"Agent {index:02d}")
    code, _, body = http(
        cluster.web_b,
        "POST",
        f"/api/v1/campaigns/{world.campaign.pk}/sheets/",
        token,
        {"kind": "party_bundle"},
    )
    assert code == 202, body[:300]
    bundle_id = json.loads(body)["id"]
    victim = wait_for(lambda: worker_that_started(cluster, bundle_id), 60, "a worker to take the bundle")
    cluster.kill(victim)
    assert SheetRender.objects.get(pk=bundle_id).status == "running"  # killed mid-render
    survivor = "worker_2" if victim == "worker_1" else "worker_1"
    wait_for(
        lambda: status_through(cluster.web_a, token, bundle_id)["status"] == "done", 60, "the other worker"
    )
    bundle = SheetRender.objects.get(pk=bundle_id)
    assert bundle.attempts == 2
    assert f"sheet render {bundle_id} started, attempt 2" in cluster.nodes[survivor].log_text()
    code, _, downloaded = http(cluster.web_a, "GET", f"/api/v1/sheets/{bundle_id}/download/", token)
    assert code == 200 and downloaded == stored_bytes(cluster, bundle)
    assert pdf_text(downloaded)[0] == BUNDLE_SIZE + 1  # the party: Harry Adams and the agents

    # Node A's metrics count the requests it served and read the queue every node shares.
    scraped = _metrics(cluster.web_a)
    assert 'dossier_sheet_renders{status="queued"} 0.0' in scraped
    assert 'view="api-sheet-request"' in scraped and "dossier_sheet_renders_failed 0.0" in scraped

    # Nothing was written to any node's own folder: the files live in the object store only.
    for node in cluster.nodes.values():
        assert not list(node.var_dir.rglob("*.pdf")), node.name
