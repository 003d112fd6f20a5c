"""The worker processes shared by the drawing (``rendering``) and the search bot (``bot.search.pool``).

A job is a picklable function and its arguments. ``submit`` pickles it on the event loop and writes it
straight into an idle worker's socket; the worker runs it and writes back the pickled answer, which the
loop reads when its selector says the socket is readable, a piece at a time (a replay GIF of several MB
never holds the loop). No thread of the bot's process is on the way, so a job's hand-over and its answer
never wait for a thread to get the interpreter lock from a busy event loop (``ProcessPoolExecutor`` went
through two threads each way).

``worker_pool(0, name)`` gives the same interface on one thread of the bot's process instead (tests, and
``HEISTCORD_RENDER_WORKERS=0``).
"""
from __future__ import annotations

import asyncio
import atexit
import contextlib
import multiprocessing
import pickle
import signal
import socket
import struct
import traceback
import weakref
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future as ConcurrentFuture
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.process import BaseProcess
from typing import Any, Protocol

FRAME = struct.Struct("!Q")  # every message: its length, then the pickle
READ_CAP = 1 << 20  # bytes read from one worker per turn of the event loop


class WorkerDiedError(RuntimeError):
    """The worker process died while running the job (killed, crashed, out of memory)."""


class RemoteTracebackError(Exception):
    """The traceback of an exception raised in a worker process, as text (set as the exception's cause)."""

    def __str__(self) -> str:
        return f'\n"""\n{self.args[0]}"""'


class Workers(Protocol):
    """Where jobs run off the event loop: ``submit`` them from the loop's thread."""

    def submit(self, fn: Callable[..., Any], *args: Any, timeout: float | None = None) -> asyncio.Future:
        """``fn(*args)`` run by a worker; its future fails with TimeoutError if it runs over ``timeout`` seconds
        (a worker process is then killed and replaced), with WorkerDiedError if the worker dies meanwhile."""
        ...

    def shutdown(self) -> None:
        """Stop the workers (queued jobs are cancelled); the next job starts new ones."""
        ...


def worker_pool(workers: int, name: str) -> Workers:
    """``workers`` spawned processes, or with 0 one thread of this process named ``heistcord-<name>``."""
    return ProcessWorkers(workers, name) if workers > 0 else ThreadWorkers(name)


# ---------------------------------------------------------------------------------------------- the worker
def _recv_exact(sock: socket.socket, size: int) -> bytearray | None:
    """``size`` bytes from the socket, or None when the bot closed it."""
    buffer = bytearray(size)
    view, got = memoryview(buffer), 0
    while got < size:
        n = sock.recv_into(view[got:])
        if n == 0:
            return None
        got += n
    return buffer


def _send_frame(sock: socket.socket, data: bytes) -> None:
    """One message: its length and the bytes, without copying them into one buffer."""
    header = FRAME.pack(len(data))
    sent = sock.sendmsg([header, data])
    if sent < len(header):
        sock.sendall(header[sent:])
        sent = len(header)
    sock.sendall(memoryview(data)[sent - len(header):])


def _answer(job: bytes) -> bytes:
    """Run one pickled job; its pickled answer: (True, result) or (False, exception, traceback text)."""
    try:
        fn, args = pickle.loads(job)
        answer: tuple = (True, fn(*args))
    except Exception as exc:  # the bot gets it as the job's exception
        answer = (False, exc, traceback.format_exc())
    try:
        return pickle.dumps(answer, pickle.HIGHEST_PROTOCOL)
    except Exception as exc:  # an answer or exception that can't be pickled
        error = RuntimeError(f"the worker's answer could not be pickled: {exc!r}")
        return pickle.dumps((False, error, traceback.format_exc()), pickle.HIGHEST_PROTOCOL)


def serve(sock: socket.socket) -> None:
    """A worker process's life: read a job, run it, write its answer, until the bot closes the socket."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the bot's to handle; it closes the socket
    sock.setblocking(True)
    with sock:
        while True:
            header = _recv_exact(sock, FRAME.size)
            job = None if header is None else _recv_exact(sock, FRAME.unpack(header)[0])
            if job is None:
                return
            _send_frame(sock, _answer(bytes(job)))


# ------------------------------------------------------------------------------------------ the bot's side
class _Job:
    """A job waiting for a worker or running in one."""

    __slots__ = ("data", "future", "timeout", "timer")

    def __init__(self, data: bytes, future: asyncio.Future, timeout: float | None) -> None:
        self.data = data
        self.future = future
        self.timeout = timeout
        self.timer: asyncio.TimerHandle | None = None

    def settle(self, result: Any = None, error: BaseException | None = None) -> None:
        """Give the caller the answer, unless it stopped waiting (or its event loop is gone)."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.future.done() or self.future.get_loop().is_closed():
            return
        if error is not None:
            self.future.set_exception(error)
        else:
            self.future.set_result(result)


class _Worker:
    """One worker process and the event loop's end of its socket."""

    def __init__(self, pool: ProcessWorkers, loop: asyncio.AbstractEventLoop) -> None:
        mine, theirs = socket.socketpair()
        self.process = multiprocessing.get_context("spawn").Process(
            target=serve, args=(theirs,), name=f"heistcord-{pool.name}", daemon=True)
        try:
            self.process.start()
        finally:
            theirs.close()
        mine.setblocking(False)
        self.pool, self.sock, self.fd = pool, mine, mine.fileno()
        self.loop = loop
        self.job: _Job | None = None
        self.stopped = False
        self.out: memoryview | None = None  # what is left to write of the job
        self.writing = False  # waiting for the socket to take the rest
        self.header = bytearray(FRAME.size)
        self.body: bytearray | None = None
        self.got = 0
        loop.add_reader(self.fd, self.readable)

    # writing the job
    def start(self, job: _Job) -> None:
        self.job = job
        self.out = memoryview(FRAME.pack(len(job.data)) + job.data)
        if job.timeout is not None:
            job.timer = self.loop.call_later(job.timeout, self.pool._expired, self, job)
        self.writable()

    def writable(self) -> None:
        assert self.out is not None
        try:
            sent = self.sock.send(self.out)
        except (BlockingIOError, InterruptedError):
            sent = 0
        except OSError:  # the worker is gone: the reader hears it as the end of the socket
            sent = len(self.out)
        self.out = self.out[sent:] if sent < len(self.out) else None
        if self.out is None and self.writing:
            self.loop.remove_writer(self.fd)
            self.writing = False
        elif self.out is not None and not self.writing:  # the rest goes when the worker has read some
            self.loop.add_writer(self.fd, self.writable)
            self.writing = True

    # reading the answer
    def readable(self) -> None:
        budget = READ_CAP
        while budget > 0:
            target = memoryview(self.header if self.body is None else self.body)[self.got:]
            try:
                n = self.sock.recv_into(target, min(len(target), budget))
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                n = 0
            if n == 0:
                self.pool._died(self)
                return
            budget -= n
            self.got += n
            if self.body is None and self.got == FRAME.size:
                self.body, self.got = bytearray(FRAME.unpack(self.header)[0]), 0
            if self.body is not None and self.got == len(self.body):
                body, self.body, self.got = self.body, None, 0
                self.pool._answered(self, body)
                return

    # moving and stopping
    def move_to(self, loop: asyncio.AbstractEventLoop) -> None:
        self.detach()
        self.loop = loop
        loop.add_reader(self.fd, self.readable)
        if self.writing:
            loop.add_writer(self.fd, self.writable)

    def detach(self) -> None:
        if not self.loop.is_closed():
            self.loop.remove_reader(self.fd)
            self.loop.remove_writer(self.fd)

    def stop(self, kill: bool) -> None:
        """Close our end (an idle worker then returns); ``kill``: don't wait for the job it runs. Once only:
        the socket's number may belong to another file after."""
        if self.stopped:
            return
        self.stopped = True
        if self.job is not None and self.job.timer is not None:
            self.job.timer.cancel()
        self.detach()
        self.sock.close()
        if kill and self.process.is_alive():
            self.process.kill()


class ProcessWorkers:
    """Up to ``size`` spawned worker processes, started as jobs need them, each running one job at a time;
    jobs wait their turn first come first served. Use it from one event loop at a time."""

    def __init__(self, size: int, name: str) -> None:
        self.size, self.name = size, name
        self._loop: asyncio.AbstractEventLoop | None = None
        self._idle: list[_Worker] = []
        self._busy: set[_Worker] = set()
        self._queue: deque[_Job] = deque()
        self._dying: list[BaseProcess] = []
        self._reaping: asyncio.TimerHandle | None = None
        _POOLS.add(self)

    @property
    def processes(self) -> list[BaseProcess]:
        """The live worker processes."""
        return [w.process for w in (*self._idle, *self._busy)]

    def submit(self, fn: Callable[..., Any], *args: Any, timeout: float | None = None) -> asyncio.Future:
        """``fn(*args)`` in a worker process (both pickled); the future of its result. Call from the loop's
        thread. Over ``timeout`` seconds in the worker: TimeoutError, and the worker is killed and replaced;
        the worker died: WorkerDiedError (it is replaced at the next job). Cancelling the future drops the job
        if it is waiting, or its answer if it is running."""
        loop = asyncio.get_running_loop()
        self._bind(loop)
        future = loop.create_future()
        try:
            data = pickle.dumps((fn, args), pickle.HIGHEST_PROTOCOL)
        except Exception as exc:
            future.set_exception(exc)
            return future
        self._queue.append(_Job(data, future, timeout))
        self._dispatch()
        return future

    def shutdown(self) -> None:
        """Stop every worker (a running job's is killed) and cancel the waiting jobs."""
        for worker in (*self._idle, *self._busy):
            job = worker.job
            worker.stop(kill=job is not None)
            self._dying.append(worker.process)
            if job is not None and not job.future.get_loop().is_closed():
                job.future.cancel()
        self._idle.clear()
        self._busy.clear()
        while self._queue:
            self._queue.popleft().future.cancel()
        for process in self._dying:
            process.join(1)
            if process.is_alive():
                process.kill()
                process.join()
        self._dying.clear()

    def _bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """Serve ``loop`` from now on (a test's new loop, a second ``asyncio.run``): the idle workers move to
        it; jobs of the old loop have nobody waiting for them, so their workers are stopped."""
        if self._loop is loop:
            return
        if self._loop is not None and self._loop.is_running():
            raise RuntimeError(f"the {self.name} workers serve another running event loop")
        old, self._loop = self._loop, loop
        for worker in self._idle:
            worker.move_to(loop)
        for worker in list(self._busy):
            self._retire(worker)
        self._queue.clear()
        if old is not None:
            self._reaping = None

    def _dispatch(self) -> None:
        while self._queue:
            if self._queue[0].future.done():  # cancelled while it waited
                self._queue.popleft()
                continue
            if self._idle:
                worker = self._idle.pop()
            elif len(self._busy) < self.size:
                assert self._loop is not None
                try:
                    worker = _Worker(self, self._loop)
                except Exception as exc:  # no process could start (out of memory, too many processes)
                    self._queue.popleft().settle(error=WorkerDiedError(f"no {self.name} worker could start: {exc!r}"))
                    continue
            else:
                return
            self._busy.add(worker)
            worker.start(self._queue.popleft())

    def _answered(self, worker: _Worker, body: bytearray) -> None:
        job, worker.job = worker.job, None
        if job is None:
            return  # nothing was asked: ignore it
        try:
            answer = pickle.loads(body)
        except Exception as exc:
            job.settle(error=exc)
        else:
            if answer[0]:
                job.settle(answer[1])
            else:
                error = answer[1]
                error.__cause__ = RemoteTracebackError(answer[2])
                job.settle(error=error)
        self._busy.discard(worker)
        self._idle.append(worker)
        self._dispatch()

    def _died(self, worker: _Worker) -> None:
        job = worker.job
        self._retire(worker)
        if job is not None:
            died = f"a {self.name} worker process died (exit code {worker.process.exitcode})"
            job.settle(error=WorkerDiedError(died))
        self._dispatch()

    def _expired(self, worker: _Worker, job: _Job) -> None:
        job.timer = None
        if worker.stopped or worker.job is not job:
            return
        job.settle(error=TimeoutError(f"a {self.name} job ran over {job.timeout} s: its worker was killed"))
        self._retire(worker)
        self._dispatch()

    def _retire(self, worker: _Worker) -> None:
        """Stop and forget ``worker``; its process is reaped once it has exited."""
        worker.stop(kill=True)
        worker.job = None
        self._busy.discard(worker)
        if worker in self._idle:
            self._idle.remove(worker)
        self._dying.append(worker.process)
        if self._reaping is None:
            self._reap()

    def _reap(self) -> None:
        """Collect the exit status of the stopped workers that have exited (no zombies)."""
        self._reaping = None
        for process in list(self._dying):
            process.join(0)
            if process.exitcode is not None:
                self._dying.remove(process)
        if self._dying and self._loop is not None and not self._loop.is_closed():
            self._reaping = self._loop.call_later(0.05, self._reap)


_POOLS: weakref.WeakSet[ProcessWorkers] = weakref.WeakSet()


@atexit.register
def _stop_all() -> None:
    """At exit: every pool's workers stop and are reaped (multiprocessing would otherwise terminate them)."""
    for pool in list(_POOLS):
        pool.shutdown()


class ThreadWorkers:
    """The same interface on one thread of this process. A job over its timeout is abandoned (a thread
    can't be killed) and the next job gets a fresh thread."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._executor = self._new()

    def _new(self) -> ThreadPoolExecutor:
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"heistcord-{self.name}")

    def submit(self, fn: Callable[..., Any], *args: Any, timeout: float | None = None) -> asyncio.Future:
        """``fn(*args)`` on the worker thread; the future of its result (TimeoutError past ``timeout``)."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        executor = self._executor
        job = _Job(b"", future, timeout)

        def finished(done: ConcurrentFuture) -> None:
            if done.cancelled():
                future.cancel()
            else:
                job.settle(done.result() if done.exception() is None else None, done.exception())

        def back_on_the_loop(done: ConcurrentFuture) -> None:
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits for it
                loop.call_soon_threadsafe(finished, done)

        def expired() -> None:
            job.timer = None
            job.settle(error=TimeoutError(f"a {self.name} job ran over {timeout} s: abandoned on its thread"))
            if self._executor is executor:
                executor.shutdown(wait=False, cancel_futures=True)
                self._executor = self._new()

        running = executor.submit(fn, *args)
        running.add_done_callback(back_on_the_loop)
        if timeout is not None:
            job.timer = loop.call_later(timeout, expired)
        future.add_done_callback(lambda f: f.cancelled() and running.cancel())
        return future

    def shutdown(self) -> None:
        """Stop the thread once its job is done; queued jobs are cancelled."""
        self._executor.shutdown(wait=False, cancel_futures=True)
        self._executor = self._new()

