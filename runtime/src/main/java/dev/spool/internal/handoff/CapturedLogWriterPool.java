package dev.spool.internal.handoff;

import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
 * even if a wake-up was missed.
 *
 * <p><b>Blocking.</b> Producers never block here: {@link Registration#signal()} (called by the
 * queue after each offer) is one volatile read while the log is scheduled or running, else one CAS
 * and one lock-free enqueue; it unparks a pool thread only when none is awake or polling. A
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
    /** After its last work, a thread polls every {@link #WARM_PARK_NANOS} for this long before it sleeps deeply. */
    static final long WARM_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    /** The poll period of a warm thread: producers need not wake it (no system call on their side). */
    static final long WARM_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

    private static volatile int sharedThreads = DEFAULT_THREADS;
    private static volatile CapturedLogWriterPool shared;

    private final String name;
    private final Worker[] workers;
    private final ConcurrentLinkedQueue<Registration> ready = new ConcurrentLinkedQueue<>();
    private final CopyOnWriteArrayList<Registration> logs = new CopyOnWriteArrayList<>();
    /** Threads polling now (warm): a producer that sees one awake needs no unpark. */
    private final AtomicInteger warm = new AtomicInteger();
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

    /** A producer's wake-up: {@code r} was just put in the ready queue. */
    void scheduled(Registration r) {
        ready.offer(r);
        if (warm.get() > 0) {
            return; // a polling thread takes it within WARM_PARK_NANOS (see package-info)
        }
        for (Worker w : workers) {
            if (w.wakeIfSleeping()) {
                return;
            }
        }
    }

    /** Runs {@code first} and whatever else is ready; the pool thread's loop. */
    private void loop(Worker self) {
        long lastWork = System.nanoTime();
        int busyRounds = 0;
        while (!shutdown) {
            Registration r = ready.poll();
            if (r != null) {
                int n = r.run();
                if (n == BUSY) {
                    busyRounds++;
                    if (busyRounds > logs.size()) { // every ready log is held by someone else: back off
                        LockSupport.parkNanos(this, WARM_PARK_NANOS);
                        busyRounds = 0;
                    }
                } else {
                    busyRounds = 0;
                }
                lastWork = System.nanoTime();
                continue;
            }
            if (System.nanoTime() - lastWork < WARM_NANOS) {
                warm.incrementAndGet();
                try {
                    if (ready.isEmpty()) {
                        LockSupport.parkNanos(this, WARM_PARK_NANOS);
                    }
                } finally {
                    warm.decrementAndGet();
                }
                continue;
            }
            if (self.sleep(ready) && !shutdown) {
                sweep(); // slept the whole idle period: look at every log once
            }
        }
        sweep();
        for (Registration left; (left = ready.poll()) != null; ) {
            left.run();
        }
    }

    private void sweep() {
        for (Registration r : logs) {
            if (!r.queue.isEmpty() || r.stopping) {
                r.signal();
            }
        }
    }

    void forget(Registration r) {
        logs.remove(r);
    }

    /** One pool thread and its sleep flag. */
    private final class Worker {
        private static final int AWAKE = 0;
        private static final int SLEEPING = 1;
        final Thread thread;
        private final AtomicInteger state = new AtomicInteger(AWAKE);

        Worker(String threadName) {
            thread = new Thread(() -> loop(this), threadName);
            thread.setDaemon(true);
        }

        /** Sleeps up to {@link #IDLE_MILLIS} unless {@code ready} has work; true when it slept unwoken. */
        boolean sleep(ConcurrentLinkedQueue<Registration> readyQueue) {
            state.set(SLEEPING); // volatile store, then the ready queue's volatile reads (Dekker)
            if (!readyQueue.isEmpty() || shutdown) {
                state.set(AWAKE);
                return false;
            }
            LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(IDLE_MILLIS));
            return state.getAndSet(AWAKE) == SLEEPING; // still SLEEPING: nobody woke it
        }

        boolean wakeIfSleeping() {
            if (state.get() == SLEEPING && state.compareAndSet(SLEEPING, AWAKE)) {
                LockSupport.unpark(thread);
                return true;
            }
            return false;
        }
    }

    /**
     * One registered log: its drain task, its queue and its scheduling state (idle, scheduled,
     * running). {@link #signal()} is the producers' side; {@link #stop()} the owner's.
     */
    public static final class Registration {
        private static final int IDLE = 0;
        private static final int SCHEDULED = 1;
        private static final int RUNNING = 2;
        private static final int STOPPED = 3;

        private final CapturedLogWriterPool pool;
        private final String name;
        private final IntSupplier drainTask;
        final MpscCapturedRecordQueue<?> queue;
        private final AtomicInteger state = new AtomicInteger(IDLE);
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
            if (state.get() == IDLE && state.compareAndSet(IDLE, SCHEDULED)) {
                pool.scheduled(this);
            }
        }

        /** On the pool thread that took this log from the ready queue. */
        int run() {
            state.set(RUNNING);
            int n;
            do {
                n = drainOnce();
            } while (n > 0 && !stopping && pool.ready.isEmpty() && !queue.isEmpty()); // alone: keep going
            if (stopping) {
                n = drainOnce(); // the last drain after stop() (a closing owner drains the rest itself)
                if (n == BUSY && !queue.isEmpty()) {
                    state.set(SCHEDULED); // its lock is held: retried, never forgotten with records queued
                    pool.ready.offer(this);
                    return n;
                }
                state.set(STOPPED);
                pool.forget(this);
                stopped.countDown();
                return n;
            }
            if (n == BUSY || (n > 0 && !queue.isEmpty())) {
                state.set(SCHEDULED);
                pool.ready.offer(this); // tail: the other ready logs go first
                return n;
            }
            state.set(IDLE); // volatile store, then the queue's and the flag's volatile reads (Dekker)
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
