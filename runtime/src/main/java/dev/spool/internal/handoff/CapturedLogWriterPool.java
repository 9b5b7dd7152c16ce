package dev.spool.internal.handoff;

import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;

/**
 * A small fixed pool of daemon threads ({@code spool-capture-writer-<i>}) that drains every
 * captured log of the process: each log (a JUL handler, a Logback appender) registers its drain
 * task once and its queue's producers wake the pool; an application with ten captured logs gets
 * this pool's threads, not ten.
 *
 * <p><b>Guarantees.</b> At most one pool thread runs a given log's drain task at a time (a log is
 * in the pool's ready queue at most once, and only the thread that took it out runs it), so a
 * log's records are encoded in offer order by whichever thread holds its queue's drain lock;
 * different logs are drained in parallel on different threads. A log whose task drained a full
 * batch goes back to the tail of the ready queue when other logs wait (round robin between
 * logs). Every registered log with queued records is drained at least every {@link #IDLE_MILLIS},
 * even if a wake-up was missed; a log whose producer died between scheduling it and queueing it (a
 * {@code StackOverflowError}) is queued again by the sweep within two idle periods
 * ({@link TaskState#lostSchedule()}).
 *
 * <p><b>Blocking.</b> Producers never block here: {@link Registration#signal()} (called by the
 * queue after each offer) is one volatile read while the log is scheduled or running, else one CAS
 * and one lock-free enqueue; it unparks a pool thread only when none is awake or polling (see
 * {@link ParkingReadyQueue}). A
 * drain task may block on its log's own lock (a JUL handler's monitor): it then occupies one pool
 * thread, the other threads go on with the other logs. A task that cannot wait returns
 * {@link #BUSY} (its lock is held by another thread, which drains itself): the log is retried
 * after a short back-off. Tasks should drain a bounded batch per call.
 *
 * <p><b>Who calls what.</b> {@link #register} and {@link Registration#stop()} by a log's owner;
 * {@link Registration#signal()} by the log's {@link MpscCapturedRecordQueue} (producers); the
 * drain task runs only on pool threads (flushes and closes drain on their own threads through the
 * queue, never through the pool). A task's exceptions and errors are swallowed (the queue counts
 * encoding failures): a bad log never stops a pool thread.
 *
 * <p>Example:
 * <pre>{@code
 * MpscCapturedRecordQueue<Line> q = new MpscCapturedRecordQueue<>("app.log", 8192, SinkPolicy.BLOCK, 10_000);
 * CapturedLogWriterPool.Registration r = CapturedLogWriterPool.shared().register("app.log",
 *         () -> { synchronized (handler) { return q.drainTo(encoder, 64); } }, q);
 * q.offer(line);   // any thread: the pool drains it soon
 * r.stop();        // one last drain on a pool thread, then the log is forgotten
 * }</pre>
 */
public final class CapturedLogWriterPool {

    /** Threads of the shared pool unless configured ({@code spool.events.capture.threads}). */
    public static final int DEFAULT_THREADS = 2;
    /** The most threads a pool may have. */
    public static final int MAX_THREADS = 64;
    /** The longest a pool thread sleeps with nothing to do (then it looks at every log). */
    public static final long IDLE_MILLIS = 50;
    /** What a drain task returns when its log's lock is held by another thread (retried shortly). */
    public static final int BUSY = -1;
    private static final long IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(IDLE_MILLIS);

    private static volatile int sharedThreads = DEFAULT_THREADS;
    private static volatile CapturedLogWriterPool shared;

    private final String name;
    private final Worker[] workers;
    private final ParkingReadyQueue<Registration> ready = new ParkingReadyQueue<>();
    private final CopyOnWriteArrayList<Registration> logs = new CopyOnWriteArrayList<>();
    /** Held by the one thread sweeping (the checker of {@link TaskState#lostSchedule()}). */
    private final AtomicBoolean sweeping = new AtomicBoolean();
    private volatile long lastSweep = System.nanoTime();
    private volatile boolean started;
    private volatile boolean shutdown;

    /**
     * @param name    the prefix of the threads' names
     * @param threads 1 to {@link #MAX_THREADS}; the threads start at the first {@link #register}
     */
    public CapturedLogWriterPool(String name, int threads) {
        if (threads < 1 || threads > MAX_THREADS) {
            throw new IllegalArgumentException("threads must be 1.." + MAX_THREADS + ": " + threads);
        }
        this.name = Objects.requireNonNull(name, "name");
        this.workers = new Worker[threads];
        for (int i = 0; i < threads; i++) {
            workers[i] = new Worker(name + "-" + i);
        }
    }

    /**
     * Sets the size of the process's shared pool; effective only before its first use.
     *
     * @return false when the shared pool exists already (its size is kept)
     */
    public static synchronized boolean configureShared(int threads) {
        if (threads < 1 || threads > MAX_THREADS) {
            throw new IllegalArgumentException("threads must be 1.." + MAX_THREADS + ": " + threads);
        }
        sharedThreads = threads;
        return shared == null;
    }

    /** The process's pool for every captured log (created at the first call). */
    public static CapturedLogWriterPool shared() {
        CapturedLogWriterPool p = shared;
        if (p != null) {
            return p;
        }
        synchronized (CapturedLogWriterPool.class) {
            if (shared == null) {
                shared = new CapturedLogWriterPool("spool-capture-writer", sharedThreads);
            }
            return shared;
        }
    }

    /**
     * Registers a log: from now on its queue's producers wake this pool, which runs {@code drainTask}
     * (on one pool thread at a time) while the queue holds records.
     *
     * @param drainTask drains a bounded batch under the log's own locks; returns the records taken or {@link #BUSY}
     */
    public Registration register(String logName, IntSupplier drainTask, MpscCapturedRecordQueue<?> queue) {
        Registration r = new Registration(this, logName, drainTask, queue);
        logs.add(r);
        startThreads();
        queue.attach(r);
        r.signal(); // records offered before the attach
        return r;
    }

    private void startThreads() {
        if (started) {
            return;
        }
        synchronized (this) {
            if (!started) {
                for (Worker w : workers) {
                    w.thread.start();
                }
                started = true;
            }
        }
    }

    /** Threads of this pool. */
    public int threads() {
        return workers.length;
    }

    /** Logs registered and not stopped. */
    public int logs() {
        return logs.size();
    }

    /** Ends the pool's threads after one last look at every log (tests; the shared pool is never shut down). */
    public void shutdown() {
        shutdown = true;
        for (Worker w : workers) {
            LockSupport.unpark(w.thread);
        }
    }

    /** Waits at most {@code millis} for every thread to end after {@link #shutdown()}; true when they have. */
    public boolean awaitShutdown(long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        for (Worker w : workers) {
            if (w.thread.isAlive()) {
                w.thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            }
            if (w.thread.isAlive()) {
                return false;
            }
        }
        return true;
    }

    /** Runs whatever is ready; the pool thread's loop. */
    private void loop(ParkingReadyQueue<Registration>.Sleeper self) {
        long lastWork = System.nanoTime();
        int busyRounds = 0;
        while (!shutdown) {
            Registration r = ready.poll();
            if (r != null) {
                int n = r.run();
                if (n == BUSY) {
                    busyRounds++;
                    if (busyRounds > logs.size()) { // every ready log is held by someone else: back off
                        LockSupport.parkNanos(this, ParkingReadyQueue.WARM_PARK_NANOS);
                        busyRounds = 0;
                    }
                } else {
                    busyRounds = 0;
                }
                lastWork = System.nanoTime();
                if (lastWork - lastSweep >= IDLE_NANOS) {
                    sweep(lastWork); // busy with other logs: the sweep still comes every idle period
                }
                continue;
            }
            if (System.nanoTime() - lastWork < ParkingReadyQueue.WARM_NANOS) {
                ready.pollWarmly();
                continue;
            }
            if (self.sleep(IDLE_NANOS) && !shutdown) {
                sweep(System.nanoTime()); // slept the whole idle period: look at every log once
            }
        }
        sweep(System.nanoTime());
        for (Registration left; (left = ready.poll()) != null; ) {
            left.run();
        }
    }

    /** Signals every log with work; queues again a log scheduled but never queued. One thread at a time. */
    private void sweep(long now) {
        if (!sweeping.compareAndSet(false, true)) {
            return;
        }
        try {
            lastSweep = now;
            for (Registration r : logs) {
                if (r.state.lostSchedule()) {
                    ready.offerAndWake(r);
                } else if (!r.queue.isEmpty() || r.stopping) {
                    r.signal();
                }
            }
        } finally {
            sweeping.set(false);
        }
    }

    void forget(Registration r) {
        logs.remove(r);
    }

    /** One pool thread, registered with the ready queue as a sleeper producers may wake. */
    private final class Worker {
        final Thread thread;

        Worker(String threadName) {
            thread = new Thread(this::run, threadName);
            thread.setDaemon(true);
        }

        private void run() {
            ParkingReadyQueue<Registration>.Sleeper self = ready.sleeper(thread);
            try {
                loop(self);
            } finally {
                ready.remove(self);
            }
        }
    }

    /**
     * One registered log: its drain task, its queue and its scheduling state (idle, scheduled,
     * running). {@link #signal()} is the producers' side; {@link #stop()} the owner's.
     */
    public static final class Registration {
        private final CapturedLogWriterPool pool;
        private final String name;
        private final IntSupplier drainTask;
        final MpscCapturedRecordQueue<?> queue;
        /** Package-private for the test that simulates a producer dying while scheduling. */
        final TaskState state = new TaskState();
        private final CountDownLatch stopped = new CountDownLatch(1);
        volatile boolean stopping;

        private Registration(CapturedLogWriterPool pool, String name, IntSupplier drainTask, MpscCapturedRecordQueue<?> queue) {
            this.pool = pool;
            this.name = Objects.requireNonNull(name, "name");
            this.drainTask = Objects.requireNonNull(drainTask, "drainTask");
            this.queue = Objects.requireNonNull(queue, "queue");
        }

        /** Producer side (lock-free): makes sure a pool thread will run the drain task soon. */
        void signal() {
            if (state.schedule()) {
                pool.ready.offerAndWake(this);
            }
        }

        /** On the pool thread that took this log from the ready queue; 0 for an extra entry (see the sweep). */
        int run() {
            if (!state.begin()) {
                return 0; // a second entry: run, or running, elsewhere
            }
            int n;
            do {
                n = drainOnce();
            } while (n > 0 && !stopping && pool.ready.isEmpty() && !queue.isEmpty()); // alone: keep going
            if (stopping) {
                n = drainOnce(); // the last drain after stop() (a closing owner drains the rest itself)
                if (n == BUSY && !queue.isEmpty()) {
                    state.reschedule(); // its lock is held: retried, never forgotten with records queued
                    pool.ready.requeue(this);
                    return n;
                }
                state.end();
                pool.forget(this);
                stopped.countDown();
                return n;
            }
            if (n == BUSY || (n > 0 && !queue.isEmpty())) {
                state.reschedule();
                pool.ready.requeue(this); // tail: the other ready logs go first
                return n;
            }
            state.idle(); // volatile store, then the queue's and the flag's volatile reads (Dekker)
            if (!queue.isEmpty() || stopping) {
                signal();
            }
            return n;
        }

        private int drainOnce() {
            try {
                return drainTask.getAsInt();
            } catch (Throwable t) {
                return 0; // the queue counted the encoder's failures; a failing lock or task waits for the next wake
            }
        }

        /** Asks for one last drain on a pool thread, after which the log is forgotten; does not wait. */
        public void stop() {
            stopping = true;
            signal();
        }

        /** Waits at most {@code millis} for the last drain after {@link #stop()}; true when it is done. */
        public boolean awaitStopped(long millis) throws InterruptedException {
            return stopped.await(Math.max(1, millis), TimeUnit.MILLISECONDS);
        }

        public String name() {
            return name;
        }

        /** The thread-name prefix of the pool draining this log. */
        public String poolName() {
            return pool.name;
        }
    }
}
