"""`judge eval --ray`: the parallel and re-run phases on a Ray cluster
(docs/design/6-evaluation.md §6.7 ray).

The driver (the `judge eval` process) keeps everything the local run keeps: the one SQLite
store, resume, dedup by judgment key, the metrics; only the gradings move. Ray decides where
they may run, as resources: one worker, a Ray actor (`JudgeWorker`), per CPU of every node (or
per unit of a node's `judge` resource, when some node declares one), each owning a warm Grader
on its own slot, pinned to one core of its node.

- A worker checks its node when it starts, in the thread that then owns its Grader: the judge
  version must be the driver's, the node's audit record (`judge audit --quick`, run once when
  the node has none) must not have FAILed, and its sandbox must start. A worker that fails any
  of these refuses work: its node is reported and not used.
- Problems go into the object store once (``ray.put``) and travel as references inside the
  task's arguments, so each node fetches a problem once and each worker deserializes it once.
  Compiled programs are cached per node by the compile cache, as in the local run.
- Faults: a worker that dies (its process killed, its node removed) loses the tasks it held;
  they go back to the queue and are graded by another worker, and a replacement worker is
  started on the node when the node is still alive. Every fault is reported (summary.json
  "cluster"). A result is kept once per judgment key (a second one is dropped and counted),
  and a task lost with MAX_ATTEMPTS workers is a judge failure (SE), judged on the next run.
- Re-runs (borderline TLEs, BUSY) go, after the parallel phase and its workers are gone, to one
  worker on one node (the driver's when it is a node of the cluster), pinned to the CPU other
  work leaves the most room on there, as in the local run.
- A kept phase (`judge_kept`, for ray_gradings' batches of single gradings) hands its workers
  back to the cluster when it ends instead of closing them, so the next batch finds them warm.
"""
from __future__ import annotations

import collections
import concurrent.futures
import itertools
import logging
import os
import platform
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from judge import JudgeError, __version__, config
from judge.evaluate.pool import PARALLEL
from judge.evaluate.provenance import Provenance, establish
from judge.evaluate.tasks import (
    EvalConfig,
    Outcome,
    Task,
    failure_message,
    grading_timing,
    se_record,
)
from judge.evaluate.validation import validate_problems
from judge.problems.model import Problem
from judge.sandbox.slots import RAY_WORKERS, cpu_of

logger = logging.getLogger(__name__)

RAY_MISSING = "judge eval --ray needs Ray on this machine: pip install 'judge[ray]'"
LOCAL = "local"              # --ray without an address: start a Ray instance in this process
JUDGE_RESOURCE = "judge"     # a node declaring it gets that many workers (else one per CPU)
DEPTH = 2                    # tasks queued on a worker: the next one is there when one ends
MAX_ATTEMPTS = 3             # workers a task may be lost with before it is a judge failure
MAX_REPLACEMENTS = 3         # replacement workers started on one node in one phase
READY_TIMEOUT_S = 1800.0     # a worker's start may include its node's first audit
READY_GRACE_S = 20.0         # once one worker is ready, the others join the phase as they come
REPLACE_AFTER_S = 3.0        # a removed node is marked dead within this; then no replacement
PROBLEM_CACHE = 32           # problems a worker keeps deserialized
CLIENT_INIT_ATTEMPTS = 3     # connections to a cluster whose server failed to start our session


def _first_line(text: str, limit: int = 300) -> str:
    line = next((ln.strip() for ln in str(text).splitlines() if ln.strip()), "")
    return line[:limit]


# ------------------------------------------------------------------------------ the worker

class JudgeWorker:
    """One worker slot in a Ray worker process (made a Ray actor by _actor_class). A Grader,
    and its supervisors, belong to the thread that created them (PR_SET_PDEATHSIG follows the
    thread), so a thread of the worker's own owns it and the actor's methods hand it work:
    whichever thread Ray runs a method on, the Grader sees one thread."""

    def __init__(self, spec: dict) -> None:
        self.spec = spec
        self.grader: Any = None
        self.broken = ""
        self.info: dict = {}
        self._problems: collections.OrderedDict[str, Problem] = collections.OrderedDict()
        self._requests: queue.SimpleQueue = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._serve, name="judge-ray-worker", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            item = self._requests.get()
            if item is None:
                return
            future, fn, args = item
            try:
                future.set_result(fn(*args))
            except BaseException as exc:   # handed back to the method that asked
                future.set_exception(exc)

    def _in_thread(self, fn: Callable, *args: Any) -> Any:
        future: concurrent.futures.Future = concurrent.futures.Future()
        self._requests.put((future, fn, args))
        return future.result()

    # -- methods the driver calls (serially: one at a time per worker)

    def ready(self) -> dict:
        """Starts the worker: the node's checks, then the Grader. Returns where it is and
        what it found; "error" says why it refuses work."""
        return self._in_thread(self._start)

    def grade(self, source: str, language: str, problem_box: list,
              options: dict | None = None) -> dict:
        problem = self._problem(problem_box[0])
        return self._in_thread(self._grade, source, language, problem, options or {})

    def validate(self, problem_box: list) -> str:
        """validate_problems on this worker's Grader: "" when every problem can be judged."""
        problems = [self._problem(ref) for ref in problem_box[0]]
        return self._in_thread(self._validate, problems)

    def echo(self, source: str, language: str, problem_box: list) -> dict:
        """A grade() that grades nothing: the task's whole path through Ray (arguments, the
        problem's reference, the reply) without the judging, for `make bench`."""
        self._problem(problem_box[0])
        return {"record": None, "timing": {}, "worker": {}}

    def close(self) -> None:
        if self._thread.is_alive():
            self._in_thread(self._close)
            self._requests.put(None)
            self._thread.join(10)

    # -- in the worker's thread

    def _start(self) -> dict:
        import ray

        from judge.cpus import idlest_cpu, usable_cpus
        spec = self.spec
        context = ray.get_runtime_context()
        self.info = {"node_id": context.get_node_id(), "host": platform.node(),
                     "ip": ray.util.get_node_ip_address(), "pid": os.getpid(),
                     "slot": spec["slot"], "cpu": None}
        try:
            if spec["version"] != __version__:
                raise JudgeError(f"this node runs judge {__version__}, the driver judge "
                                 f"{spec['version']}: install the same judge on every node")
            config.install(spec["config"].on_node())
            cpus = usable_cpus()
            if spec["cpu_index"] is None:
                cpu = idlest_cpu(cpus, 0.3)
            else:
                cpu = cpu_of(spec["cpu_index"], cpus)
            self.info["cpu"] = cpu
            provenance = establish(spec["languages"], spec["slot"], spec["allow_unaudited"],
                                   lambda message: logger.warning("%s", message))
            from judge.grade import Grader
            self.grader = Grader(slot=spec["slot"], cpu=cpu, testlib=spec["testlib"])
            self.grader.sandbox.cgroup   # noqa: B018  (the run slot starts now: a node that cannot is refused here)
        except Exception as exc:
            self.broken = f"{type(exc).__name__}: {exc}"
            self._close()
            return {**self.info, "error": self.broken}
        return {**self.info, "error": "", "provenance": provenance}

    def _where(self) -> dict:
        return {"node": self.info["ip"], "node_id": self.info["node_id"], "host": self.info["host"],
                "cpu": self.info["cpu"], "slot": self.info["slot"]}

    def _grade(self, source: str, language: str, problem: Problem, options: dict) -> dict:
        from judge.grade import Grader
        if self.grader is None:
            return {"broken": self.broken or "the worker has no grader"}
        started = time.perf_counter()
        try:
            result = self.grader.grade(source, language, problem, **options)
            record = result.to_dict()
            phases = getattr(result, "timings", {}) or {}
        except Exception as exc:  # the judge failed on this program: SE, as in the local run
            record, phases = se_record(problem, language, failure_message(exc)), {}
            try:
                self.grader.close()
            except Exception:
                pass
            try:
                self.grader = Grader(slot=self.spec["slot"], cpu=self.info["cpu"],
                                     testlib=self.spec["testlib"])
            except Exception as again:  # this worker can grade no more: its tasks go elsewhere
                self.grader = None
                self.broken = f"the grader could not be started again: {type(again).__name__}: {again}"
        timing = grading_timing((time.perf_counter() - started) * 1e3, phases)
        return {"record": record, "timing": timing, "worker": self._where()}

    def _validate(self, problems: list[Problem]) -> str:
        if self.grader is None:
            raise JudgeError(self.broken or "the worker has no grader")
        try:
            validate_problems(problems, self.spec["slot"], self.spec["testlib"], self.grader)
        except JudgeError as exc:
            return str(exc)
        return ""

    def _close(self) -> None:
        if self.grader is not None:
            try:
                self.grader.close()
            finally:
                self.grader = None

    def _problem(self, ref: Any) -> Problem:
        """The problem behind an object reference, deserialized once per worker (the object
        store fetches it once per node)."""
        import ray
        key = ref.hex()
        problem = self._problems.get(key)
        if problem is None:
            problem = ray.get(ref)
            self._problems[key] = problem
            while len(self._problems) > PROBLEM_CACHE:
                self._problems.popitem(last=False)
        else:
            self._problems.move_to_end(key)
        return problem


_ACTOR = None


def _actor_class():
    global _ACTOR
    if _ACTOR is None:
        import ray
        _ACTOR = ray.remote(max_restarts=0, max_task_retries=0)(JudgeWorker)
    return _ACTOR


# ------------------------------------------------------------------------------ the driver

@dataclass
class _Node:
    node_id: str
    ip: str
    host: str
    capacity: int


@dataclass
class _Handle:
    """The driver's view of one worker."""
    actor: Any
    node: _Node
    slot: int
    cpu_index: int | None
    ready_ref: Any
    info: dict = field(default_factory=dict)
    alive: bool = False
    inflight: set = field(default_factory=set)
    graded: int = 0

    @property
    def where(self) -> str:
        cpu = self.info.get("cpu")
        return f"node {self.node.ip} ({self.node.node_id[:12]}) slot {self.slot}" + (
            f" cpu {cpu}" if cpu is not None else "")


@dataclass
class _Job:
    task: Task
    attempts: int = 0
    lost_with: list = field(default_factory=list)


def _is_ray_error(exc: BaseException) -> bool:
    import ray
    return isinstance(exc, ray.exceptions.RayError)


class RayCluster:
    """The evaluation's connection to Ray and its parallel-phase workers. Made before the store
    is opened: it raises JudgeError when Ray is missing, the cluster cannot be reached or no
    worker can start (each refusal named)."""

    def __init__(self, cfg: EvalConfig, languages: list[str], limit: int | None,
                 warn: Callable[[str], None]) -> None:
        try:
            import ray
        except ImportError:
            raise JudgeError(RAY_MISSING) from None
        self.ray = ray
        self.cfg = cfg
        self.warn = warn
        self.address = cfg.ray or LOCAL
        self.languages = languages
        self.limit = limit
        self.started_ray = False
        self.slots = RAY_WORKERS.span(cfg.slot_base)   # workers take them in turn, cluster-wide
        self.next_slot = iter(self.slots)
        self.faults: list[dict] = []
        self.refused: list[dict] = []
        self.nodes_used: dict[str, dict] = {}
        self.retried = 0
        self.duplicates = 0
        self.lost = 0
        self.phases: dict[str, dict] = {}
        self.handles: list[_Handle] = []
        self.late: list[_Handle] = []      # still starting when the judging began
        self._refs: dict[str, Any] = {}    # problem id -> object ref
        self._connect()
        try:
            self.handles = self._start_workers(limit)
            self.provenance = self._provenance()
        except BaseException:
            self.close()
            raise

    # -- connection and placement

    def _connect(self) -> None:
        ray = self.ray
        if ray.is_initialized():     # an embedder (or a test) connected already
            return
        options: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.WARNING,
                                   "configure_logging": False}
        # A Ray instance started here reports nothing to Ray's usage statistics service.
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        try:
            if self.address == LOCAL:
                from judge.cpus import usable_cpus
                # "local": a new instance even when this machine belongs to a cluster.
                ray.init(address="local", num_cpus=len(usable_cpus()), include_dashboard=False,
                         **options)
            else:
                self._init_with_retries(options)
        except Exception as exc:
            raise JudgeError(f"--ray {self.address}: cannot connect to the Ray cluster: "
                             f"{_first_line(str(exc))}") from None
        self.started_ray = True

    def _init_with_retries(self, options: dict[str, Any]) -> None:
        """A cluster's address, retried when the server was reached but failed to start the
        process it runs for this client (Ray Client answers "Initialization failure from
        server"; on a loaded machine that start can time out). A new attempt gets a new one."""
        for attempt in range(1, CLIENT_INIT_ATTEMPTS + 1):
            try:
                self.ray.init(address=self.address, **options)
                return
            except ConnectionAbortedError as exc:
                if attempt == CLIENT_INIT_ATTEMPTS:
                    raise
                logger.warning("--ray %s: attempt %d to connect failed (%s); trying again",
                               self.address, attempt, _first_line(str(exc)))
                time.sleep(2.0 * attempt)

    def _driver_node(self) -> str | None:
        try:
            return self.ray.get_runtime_context().get_node_id()
        except Exception:     # a Ray Client driver is no node of the cluster
            return None

    def _alive_nodes(self) -> list[_Node]:
        nodes = [n for n in self.ray.nodes() if n.get("Alive")]
        judge_marked = any(JUDGE_RESOURCE in n.get("Resources", {}) for n in nodes)
        found = []
        for n in nodes:
            resources = n.get("Resources", {})
            capacity = int(resources.get(JUDGE_RESOURCE if judge_marked else "CPU", 0))
            found.append(_Node(n["NodeID"], n.get("NodeManagerAddress", "?"),
                               n.get("NodeManagerHostname", "?"), capacity))
        self.judge_marked = judge_marked
        driver = self._driver_node()
        return sorted(found, key=lambda n: (n.node_id != driver, n.ip, n.node_id))

    def _node_alive(self, node_id: str) -> bool:
        try:
            return any(n["NodeID"] == node_id and n.get("Alive") for n in self.ray.nodes())
        except Exception:
            return False

    def _spawn(self, node: _Node, cpu_index: int | None) -> _Handle:
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy
        slot = next(self.next_slot, None)
        if slot is None:
            raise JudgeError(f"no sandbox slot numbers left for Ray workers (slots "
                             f"{self.slots.start}-{self.slots.stop - 1} are all taken)")
        spec = {"slot": slot, "cpu_index": cpu_index, "version": __version__,
                "config": config.current(), "languages": self.languages,
                "allow_unaudited": self.cfg.allow_unaudited,
                "testlib": os.path.abspath(self.cfg.testlib) if self.cfg.testlib else None}
        options: dict[str, Any] = {
            "num_cpus": 1,
            "scheduling_strategy": NodeAffinitySchedulingStrategy(node.node_id, soft=False)}
        if self.judge_marked:
            options["resources"] = {JUDGE_RESOURCE: 1}
        actor = _actor_class().options(**options).remote(spec)
        return _Handle(actor, node, slot, cpu_index, actor.ready.remote())

    def _start_workers(self, limit: int | None) -> list[_Handle]:
        nodes = [n for n in self._alive_nodes() if n.capacity > 0]
        if not nodes:
            raise JudgeError(f"--ray {self.address}: the cluster has no node with a CPU for a judge "
                             "worker")
        # Cores are numbered per machine: nodes sharing an address (several Ray nodes on one
        # host) take different cores of it.
        per_host: dict[str, int] = collections.Counter()
        places: list[tuple[_Node, int]] = []
        for node in nodes:
            for _ in range(node.capacity):
                places.append((node, per_host[node.ip]))
                per_host[node.ip] += 1
        # Round robin over the nodes, so that --jobs N spreads over them.
        by_node = [[p for p in places if p[0] is node] for node in nodes]
        chosen = [p for turn in itertools.zip_longest(*by_node) for p in turn if p is not None]
        if limit:
            chosen = chosen[:limit]
        handles = [self._spawn(node, index) for node, index in chosen]
        ready = self._await_ready(handles)
        if not ready:
            reasons = "; ".join(f"{r['where']}: {r['error']}" for r in self.refused[:5])
            raise JudgeError(f"--ray {self.address}: no judge worker could start on the cluster, "
                             f"so nothing was judged: {reasons}")
        return ready

    def _await_ready(self, handles: list[_Handle], grace: bool = True) -> list[_Handle]:
        """Waits for the workers' start; returns those that accept work. Once one is ready the
        others get READY_GRACE_S more (a node auditing itself first takes a minute, Ray may
        still be freeing a CPU): those still starting then join the parallel phase when they
        are ready (`late`)."""
        pending = {h.ready_ref: h for h in handles}
        deadline = time.monotonic() + READY_TIMEOUT_S
        ready: list[_Handle] = []
        while pending and time.monotonic() < deadline:
            done, _ = self.ray.wait(list(pending), num_returns=1, timeout=1.0)
            for ref in done:
                if self._accept(pending.pop(ref), ref, ready) and grace:
                    deadline = min(deadline, time.monotonic() + READY_GRACE_S)
        if ready and grace:
            self.late.extend(pending.values())
        else:
            for h in pending.values():
                self._refuse(h, f"did not start within {READY_TIMEOUT_S:.0f} s")
        return ready

    def _accept(self, h: _Handle, ref: Any, ready: list[_Handle]) -> bool:
        try:
            h.info = self.ray.get(ref)
        except Exception as exc:
            self._refuse(h, f"the worker died while starting: {_first_line(str(exc))}")
            return False
        if h.info.get("error"):
            self._refuse(h, h.info["error"])
            return False
        h.alive = True
        ready.append(h)
        node = self.nodes_used.setdefault(h.node.node_id, {
            "node": h.node.ip, "node_id": h.node.node_id, "host": h.info.get("host"),
            "workers": 0, "cpus": [], "graded": 0, "audit": None})
        node["workers"] += 1
        if h.info.get("cpu") not in node["cpus"]:
            node["cpus"].append(h.info.get("cpu"))
        provenance = h.info.get("provenance")
        if provenance is not None:
            node["audit"] = provenance.audit.status.value
            node["sandbox"] = {"cgroup": provenance.sandbox.cgroup,
                               "uid_mode": provenance.sandbox.uid_mode}
        logger.info("Ray worker ready: %s", h.where)
        return True

    def _refuse(self, h: _Handle, reason: str) -> None:
        entry = {"node": h.node.ip, "node_id": h.node.node_id, "slot": h.slot,
                 "where": h.where, "error": _first_line(reason, 500)}
        self.refused.append(entry)
        logger.warning("Ray worker refused: %s: %s", h.where, entry["error"])
        self._kill(h)

    def _kill(self, h: _Handle, graceful: bool = False) -> None:
        self._kill_all([h], graceful)

    def _kill_all(self, handles: list[_Handle], graceful: bool = False) -> None:
        """Ends workers; gracefully: each closes its Grader first (its slots' clean-up)."""
        if graceful:
            closing = []
            for h in handles:
                if h.alive:
                    try:
                        closing.append(h.actor.close.remote())
                    except Exception:
                        pass
            if closing:
                try:
                    self.ray.wait(closing, num_returns=len(closing), timeout=30)
                except Exception:
                    pass
        for h in handles:
            h.alive = False
            try:
                self.ray.kill(h.actor)
            except Exception:
                pass

    # -- what the evaluation asks

    @property
    def size(self) -> int:
        return len(self.handles)

    def _provenance(self) -> Provenance:
        """The provenance of the first node that started a worker, its audit the worst of the
        nodes' (a FAIL allowed by --allow-unaudited, NOT RUN, INCONCLUSIVE, then PASS), with
        every node's warnings."""
        from judge.audit.record import AuditStatus
        rank = {AuditStatus.FAIL: 0, AuditStatus.NOT_RUN: 1, AuditStatus.INCONCLUSIVE: 2,
                AuditStatus.PASS: 3}
        provenances = [h.info["provenance"] for h in self.handles]
        base = provenances[0]
        worst = min(provenances, key=lambda p: rank[p.audit.status])
        base.audit = worst.audit
        base.warnings = list(dict.fromkeys(w for p in provenances for w in p.warnings))
        base.host = {**base.host, "ray_nodes": len(self.nodes_used),
                     "ray_workers": len(self.handles)}
        return base

    def _problem_refs(self, problems: list[Problem]) -> list[Any]:
        refs = []
        for problem in problems:
            if problem.id not in self._refs:
                self._refs[problem.id] = self.ray.put(problem)
            refs.append(self._refs[problem.id])
        return refs

    def validate(self, problems: list[Problem]) -> None:
        """validate_problems on one worker; raises JudgeError naming the problems that fail."""
        if not problems:
            return
        refs = self._problem_refs(problems)
        for h in self.handles:
            try:
                broken = self.ray.get(h.actor.validate.remote([refs]))
            except Exception as exc:
                if not _is_ray_error(exc):
                    raise
                self._lost(h, exc, None)
                continue
            if broken:
                raise JudgeError(broken)
            return
        raise JudgeError("no judge worker of the cluster is left to check the problems with")

    def pool(self, tasks: list[Task], jobs: int, phase: str) -> RayPhase:
        late: list[_Handle] = []
        if phase == PARALLEL:
            handles, self.handles = self.handles, []
            late, self.late = self.late, []
        else:
            # The parallel phase's workers leave the machines quiet for the re-runs.
            self._kill_all(self.handles + self.late, graceful=True)
            self.handles, self.late = [], []
            handles = self._rerun_worker()
        problems = list({id(t.problem): t.problem for t in tasks}.values())
        refs = dict(zip(map(id, problems), self._problem_refs(problems), strict=True))
        return RayPhase(self, handles, tasks, refs, phase, jobs, late)

    def kept_pool(self, tasks: list[Task], workers: int | None = None) -> RayPhase:
        """A phase whose workers come back to the cluster when it ends, warm for the next
        one (a reward's batches, one training step after another): every worker, or the first
        `workers` of them (the others stay idle meanwhile). One kept phase at a time."""
        if not self.handles and not self.late:      # every worker was lost: start anew
            self.handles = self._start_workers(self.limit)
        chosen, self.handles = self.handles[:workers], self.handles[workers:]
        late: list[_Handle] = []
        if workers is None or not chosen:
            late, self.late = self.late, []
        # Put for this phase alone: a reward's rows may give two problems one id, and a
        # trainer's next step has problems of its own.
        problems = {id(t.problem): t.problem for t in tasks}
        refs = {key: self.ray.put(problem) for key, problem in problems.items()}
        return RayPhase(self, chosen, tasks, refs, "kept", len(chosen), late, keep=True)

    def judge_kept(self, tasks: list[Task], workers: int | None = None) -> dict[str, Outcome]:
        """`tasks` judged in a kept phase (their judgment keys distinct), by key."""
        if not tasks:
            return {}
        phase = self.kept_pool(tasks, workers).start()
        outcomes: dict[str, Outcome] = {}
        while (outcome := phase.results.get()) is not None:
            outcomes[outcome.task.jk.key] = outcome
        phase.thread.join()
        return outcomes

    def _rerun_worker(self) -> list[_Handle]:
        """One worker for the re-runs, on the driver's node when it is one of the nodes the
        parallel phase used (else the first of them), on its idlest CPU."""
        used = [n for n in self._alive_nodes() if n.node_id in self.nodes_used] or \
            [n for n in self._alive_nodes() if n.capacity > 0]
        for node in used:
            ready = self._await_ready([self._spawn(node, None)], grace=False)
            if ready:
                return ready
        raise JudgeError("no judge worker could start for the TLE re-runs")

    def report(self) -> dict:
        return {"address": self.address,
                "resource": JUDGE_RESOURCE if getattr(self, "judge_marked", False) else "CPU",
                "nodes": list(self.nodes_used.values()), "refused": self.refused,
                "faults": self.faults, "retried": self.retried, "lost": self.lost,
                "duplicates_dropped": self.duplicates, "phases": self.phases}

    def _lost(self, h: _Handle, exc: BaseException, job: _Job | None) -> None:
        """A worker died (or its node did): recorded once."""
        if not h.alive:
            return
        h.alive = False
        fault = {"event": "worker lost", "node": h.node.ip, "node_id": h.node.node_id,
                 "slot": h.slot, "cpu": h.info.get("cpu"), "error": _first_line(str(exc)),
                 "at": time.time()}
        if job is not None:
            fault["task"] = {"problem_id": job.task.problem.id, "language": job.task.language}
        self.faults.append(fault)
        logger.warning("Ray worker lost: %s: %s", h.where, fault["error"])
        try:
            self.ray.kill(h.actor)
        except Exception:
            pass

    def close(self) -> None:
        self._kill_all(self.handles + self.late, graceful=True)
        self.handles, self.late = [], []
        if self.started_ray:
            try:
                self.ray.shutdown()
            except Exception:
                pass
            self.started_ray = False


class RayPhase:
    """One phase's dispatch (a pool.PhasePool): a thread of the driver hands the tasks to
    the workers, DEPTH at a time each, and puts an Outcome per task on `results`, then None."""

    def __init__(self, cluster: RayCluster, handles: list[_Handle], tasks: list[Task],
                 refs: dict[int, Any], phase: str, jobs: int, late: list[_Handle],
                 keep: bool = False) -> None:
        self.cluster = cluster
        self.keep = keep        # the workers go back to the cluster at the end, not killed
        self.late = late
        self.ray = cluster.ray
        self.handles = list(handles)
        self.phase = phase
        self.refs = refs        # id() of a task's Problem -> its object reference
        self.pending: collections.deque[_Job] = collections.deque(_Job(t) for t in tasks)
        self.results: queue.SimpleQueue[Outcome | None] = queue.SimpleQueue()
        self.stop = threading.Event()
        self.workers = 1
        nodes = len({h.node.node_id for h in handles})
        self.label = (f"{len(handles)} Ray worker{'s' if len(handles) > 1 else ''} on {nodes} "
                      f"node{'s' if nodes > 1 else ''}")
        self.replacements: collections.Counter[str] = collections.Counter()
        self.to_replace: list[tuple[float, _Handle]] = []   # (when to decide, the lost worker)
        self.replaced = 0
        self.thread = threading.Thread(target=self._dispatch, name="judge-ray-dispatch", daemon=True)

    def start(self) -> RayPhase:
        self.thread.start()
        return self

    def shutdown(self, timeout: float = 30.0) -> None:
        self.stop.set()
        self.thread.join(timeout)

    def _dispatch(self) -> None:
        inflight: dict[Any, tuple[_Job, _Handle]] = {}
        starting: dict[Any, _Handle] = {h.ready_ref: h for h in self.late}
        done: set[str] = set()
        try:
            self._loop(inflight, starting, done)
        except Exception as exc:   # the dispatcher itself failed: nothing it held is lost
            message = f"the Ray dispatcher failed: {type(exc).__name__}: {exc}"
            logger.error("%s", message, exc_info=True)
            jobs = list(self.pending) + [job for job, _ in inflight.values()]
            self.pending.clear()
            for job in jobs:
                if job.task.jk.key not in done:
                    done.add(job.task.jk.key)
                    self._put_se(job, message)
        finally:
            if self.keep:
                self.cluster.handles[:0] = [h for h in self.handles if h.alive]
                self.cluster.late.extend(starting.values())
            else:
                self.cluster._kill_all(self.handles + list(starting.values()), graceful=True)
            self.cluster.phases[self.phase] = {
                "workers": sorted({h.where for h in self.handles if h.graded}),
                "replacements": self.replaced}
            self.results.put(None)

    def _put_se(self, job: _Job, message: str) -> None:
        task = job.task
        self.results.put(Outcome(task, se_record(task.problem, task.language, message),
                                 {"grade_ms": 0.0}, time.monotonic(), None))

    def _submit(self, h: _Handle, job: _Job, inflight: dict) -> None:
        t = job.task
        ref = h.actor.grade.remote(t.source, t.language, [self.refs[id(t.problem)]], t.options)
        inflight[ref] = (job, h)
        h.inflight.add(ref)

    def _loop(self, inflight: dict, starting: dict, done: set[str]) -> None:
        stop_deadline = None
        while True:
            if self.stop.is_set():
                # Interrupted: hand out nothing more; collect what is in flight for a while.
                if stop_deadline is None:
                    stop_deadline = time.monotonic() + 15.0
                    self.pending.clear()
                if not inflight or time.monotonic() > stop_deadline:
                    return
            else:
                for h in self.handles:
                    while h.alive and len(h.inflight) < DEPTH and self.pending:
                        self._submit(h, self.pending.popleft(), inflight)
                if not inflight and not self.pending:
                    return
                self._replace_due(starting)
                if not inflight and not starting and not self.to_replace:
                    message = ("every Ray worker was lost; " + "; ".join(
                        f"{f['node']} slot {f['slot']}: {f['error']}"
                        for f in self.cluster.faults[-3:]))
                    while self.pending:
                        job = self.pending.popleft()
                        done.add(job.task.jk.key)
                        self._put_se(job, message)
                    return
            refs = list(inflight) + list(starting)
            if not refs:             # only replacements to decide on
                time.sleep(0.1)
                continue
            ready, _ = self.ray.wait(refs, num_returns=1, timeout=0.25)
            if ready:
                more, _ = self.ray.wait(refs, num_returns=len(refs), timeout=0)
                ready = list(dict.fromkeys(ready + more))
            for ref in ready:
                if ref in starting:
                    h = starting.pop(ref)
                    accepted: list[_Handle] = []
                    if self.cluster._accept(h, ref, accepted):
                        self.handles.append(h)
                else:
                    self._collect(ref, inflight, starting, done)

    def _collect(self, ref: Any, inflight: dict, starting: dict, done: set[str]) -> None:
        """Takes a finished grading's reply: an Outcome, unless its worker was lost or broken
        (the task goes back to the queue) or the key was graded already (dropped)."""
        job, h = inflight.pop(ref)
        h.inflight.discard(ref)
        try:
            reply = self.ray.get(ref)
        except Exception as exc:
            if not _is_ray_error(exc):
                raise
            self._worker_lost(h, exc, job, inflight, starting, done)
            return
        if reply.get("broken"):
            self.cluster._refuse(h, reply["broken"])
            self.pending.appendleft(job)
            return
        key = job.task.jk.key
        if key in done:
            self.cluster.duplicates += 1
            return
        done.add(key)
        h.graded += 1
        node = self.cluster.nodes_used.get(h.node.node_id)
        if node is not None:
            node["graded"] += 1
        self.results.put(Outcome(job.task, reply["record"], reply["timing"],
                                 time.monotonic(), reply["worker"]))

    def _worker_lost(self, h: _Handle, exc: BaseException, job: _Job, inflight: dict,
                     starting: dict, done: set[str]) -> None:
        was_alive = h.alive
        self.cluster._lost(h, exc, job)
        job.attempts += 1
        job.lost_with.append(h.where)
        if job.task.jk.key in done:
            pass
        elif job.attempts >= MAX_ATTEMPTS:
            done.add(job.task.jk.key)
            self.cluster.lost += 1
            self._put_se(job, f"lost with {job.attempts} Ray workers ({'; '.join(job.lost_with)}): "
                              f"{_first_line(str(exc))}")
        elif not self.stop.is_set():
            self.cluster.retried += 1
            self.pending.appendleft(job)
        if was_alive and not self.stop.is_set() \
                and self.replacements[h.node.node_id] < MAX_REPLACEMENTS:
            self.replacements[h.node.node_id] += 1
            # A removed node takes a moment to be marked dead, and its workers' errors come
            # first: whether it still lives is decided a little later.
            self.to_replace.append((time.monotonic() + REPLACE_AFTER_S, h))

    def _replace_due(self, starting: dict) -> None:
        """Starts a replacement for each lost worker whose node still lives."""
        now = time.monotonic()
        due = [h for when, h in self.to_replace if when <= now]
        self.to_replace = [(when, h) for when, h in self.to_replace if when > now]
        for h in due:
            if not self.cluster._node_alive(h.node.node_id):
                logger.info("no replacement for %s: its node is gone", h.where)
                continue
            try:
                new = self.cluster._spawn(h.node, h.cpu_index)
            except Exception as spawn_error:
                logger.warning("no replacement worker on %s: %s", h.node.ip, spawn_error)
                continue
            starting[new.ready_ref] = new
            self.replaced += 1
            for fault in self.cluster.faults:
                if fault["slot"] == h.slot:
                    fault["replaced_by_slot"] = new.slot


__all__ = ["RayCluster", "RayPhase", "JudgeWorker", "RAY_MISSING", "LOCAL", "JUDGE_RESOURCE"]
