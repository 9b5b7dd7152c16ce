package dev.spool.sink;

import dev.spool.internal.handoff.ParkingReadyQueue;
import dev.spool.internal.handoff.TaskState;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The writer threads of every {@link ByteSink} in the process: a small fixed pool
 * ({@code spool-sink-writer-<i>}, {@code spool.sink.threads}, default {@value #DEFAULT_THREADS})
 * that runs each sink's {@link SinkWriter} in turns, plus one timer thread
 * ({@code spool-sink-ticker}) for what a sink must do with nobody waking it (write a partly filled
 * buffer after {@link SinkWriter#LINGER_NANOS}, rescue a buffer whose sealer died). An application
 * with ten sinks gets these threads, not ten.
 *
 * <p><b>Guarantees.</b> At most one thread runs a given sink's writer at a time (a sink is in the
 * ready queue at most once, and only the thread that took it out runs it), and each turn is the
 * old writer loop's own steps ({@link SinkWriter#step}), so per-sink order and every bound of the
 * writer hold as with a thread per sink. Different sinks run in parallel on different threads; a
 * sink that has had {@link #TURN_STEPS} steps goes back to the tail of the ready queue when others
 * wait (round robin).
 *
 * <p><b>A blocked sink never stops the others.</b> A step that has run for {@link #STALL_NANOS}
 * (a stalled disk, a host holding the lock of the stream written to, a writer waiting out a dead
 * producer, a throttled sink) counts as blocked: the timer thread starts a spare thread, so that
 * {@code threads} threads always serve the other sinks; a spare ends once it finds nothing to do
 * and enough threads are unblocked. Threads alive: {@code threads + 1} plus one spare per sink
 * blocked at the moment (never more than a thread per sink plus the pool).
 *
 * <p><b>Blocking.</b> Producers never wait here: a wake-up ({@link Member#signal()}) is one volatile
 * read while the sink is scheduled or running, else one compare-and-set and one lock-free enqueue;
 * it unparks a thread only when none is polling. An idle pool thread polls every
 * {@link ParkingReadyQueue#WARM_PARK_NANOS} for {@link ParkingReadyQueue#WARM_NANOS} after its
 * last turn, then parks until woken (a spare: for a tick at most, then looks again whether it may
 * end; see {@link ParkingReadyQueue}); the
 * timer thread wakes every {@link #TICK_NANOS} while a sink exists, and parks for good while none
 * does. Memory ordering: see the package documentation.
 *
 * <pre>{@code
 * SinkWriterPool.Member m = SinkWriterPool.shared().register(writer); // in the sink's constructor, last
 * m.signal();                                                           // a producer queued something
 * }</pre>
 */
final class SinkWriterPool {
    /** Writer threads of the shared pool unless configured ({@code spool.sink.threads}). */
    static final int DEFAULT_THREADS = 2;
    /** The most threads a pool may have. */
    static final int MAX_THREADS = 64;
    /** A step running this long counts as blocked: a spare thread serves the other sinks. */
    static final long STALL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** The timer thread's period: the writer's linger, so a partly filled buffer waits as long as before. */
    static final long TICK_NANOS = SinkWriter.LINGER_NANOS;
    /** Steps of one turn before a sink yields to others waiting. */
    static final int TURN_STEPS = 8;

    private static int sharedThreads = DEFAULT_THREADS; // guarded by SinkWriterPool.class
    private static volatile SinkWriterPool shared;

    private final String name;
    private final int threads;
    private final ParkingReadyQueue<Member> ready = new ParkingReadyQueue<>();
    private final CopyOnWriteArrayList<Member> members = new CopyOnWriteArrayList<>();
    private final CopyOnWriteArrayList<Worker> workers = new CopyOnWriteArrayList<>();
    private final Thread ticker;
    private volatile boolean tickerParked;
    /** Ticks done (for tests: a condition to await instead of sleeping). */
    volatile long ticks;
    private volatile boolean started;
    private volatile boolean shutdown;
    private int spares; // guarded by this (names only)

    /**
     * @param name    the prefix of the threads' names
     * @param threads 1 to {@link #MAX_THREADS}; the threads start at the first {@link #register}
     */
    SinkWriterPool(String name, int threads) {
        if (threads < 1 || threads > MAX_THREADS) {
            throw new IllegalArgumentException("threads must be 1.." + MAX_THREADS + ": " + threads);
        }
        this.name = Objects.requireNonNull(name, "name");
        this.threads = threads;
        for (int i = 0; i < threads; i++) {
            workers.add(new Worker(name + "-" + i, false));
        }
        ticker = new Thread(this::tick, name.replace("-writer", "") + "-ticker");
        ticker.setDaemon(true);
        ticker.setContextClassLoader(null);      // created on a host thread: never pin a web application's loader
    }

    /**
     * Sets the size of the process's pool; {@code 0} gives every sink a writer thread of its own
     * (as before the pool). Effective only before the first sink is created.
     *
     * @return false when the shared pool exists already (its size is kept)
     */
    static synchronized boolean configureShared(int threads) {
        if (threads < 0 || threads > MAX_THREADS) {
            throw new IllegalArgumentException("spool.sink.threads must be 0.." + MAX_THREADS + ": " + threads);
        }
        sharedThreads = threads;
        return shared == null;
    }

    /** The process's pool, or null when every sink has a thread of its own ({@code spool.sink.threads=0}). */
    static SinkWriterPool shared() {
        SinkWriterPool p = shared;
        if (p != null) {
            return p;
        }
        synchronized (SinkWriterPool.class) {
            if (shared == null && sharedThreads > 0) {
                shared = new SinkWriterPool("spool-sink-writer", sharedThreads);
            }
            return shared;
        }
    }

    /** Runs {@code writer} on this pool from now on (call once the sink is fully constructed). */
    Member register(SinkWriter writer) {
        Member m = new Member(this, writer);
        members.add(m);
        start();
        if (tickerParked) {
            LockSupport.unpark(ticker); // flag read after the add: Dekker with the ticker's park
        }
        m.signal();
        return m;
    }

    private void start() {
        if (started) {
            return;
        }
        synchronized (this) {
            if (!started) {
                for (Worker w : workers) {
                    w.thread.start();
                }
                ticker.start();
                started = true;
            }
        }
    }

    /** Threads alive now, the timer's included (for tests and diagnostics). */
    int threadsAlive() {
        int n = ticker.isAlive() ? 1 : 0;
        for (Worker w : workers) {
            n += w.thread.isAlive() ? 1 : 0;
        }
        return n;
    }

    /** The timer has parked for good (no sink left). */
    boolean timerParked() {
        return tickerParked;
    }

    /** Sinks served now. */
    int members() {
        return members.size();
    }

    /** Ends the threads (tests; the shared pool is never shut down). Turns in progress finish first. */
    void shutdown() {
        shutdown = true;
        LockSupport.unpark(ticker);
        for (Worker w : workers) {
            LockSupport.unpark(w.thread);
        }
    }

    private void work(Worker self) {
        long lastTurn = System.nanoTime();
        while (!shutdown) {
            Member m = ready.poll();
            if (m != null) {
                m.turn(self);
                lastTurn = System.nanoTime();
                continue;
            }
            if (System.nanoTime() - lastTurn < ParkingReadyQueue.WARM_NANOS) {
                ready.pollWarmly();
                continue;
            }
            if (self.spare && retireSpare(self)) {
                return;
            }
            // A spare refused retirement (a step still counted as blocked) looks again after a tick:
            // parked until woken, it would outlive the blockage whenever no producer wakes it.
            self.sleeper.sleep(self.spare ? TICK_NANOS : 0); // a lost wake-up is the timer's (Member.lostSchedule)
        }
    }

    /** A spare with nothing to do ends when {@code threads} unblocked threads remain without it. */
    private synchronized boolean retireSpare(Worker self) {
        if (unblocked(System.nanoTime()) - 1 < threads) {
            return false;
        }
        workers.remove(self);
        return true;
    }

    private int unblocked(long now) {
        int n = 0;
        for (Worker w : workers) {
            n += w.blocked(now) ? 0 : 1;
        }
        return n;
    }

    /** The timer thread: ticks every sink that needs one; starts spares for blocked threads. */
    private void tick() {
        while (!shutdown) {
            if (members.isEmpty()) {
                tickerParked = true;             // then the members' read: Dekker with register()
                if (members.isEmpty() && !shutdown) {
                    LockSupport.park(this);
                }
                tickerParked = false;
                continue;
            }
            LockSupport.parkNanos(this, TICK_NANOS);
            try {
                for (Member m : members) {
                    if (m.state.lostSchedule()) {
                        ready.offerAndWake(m);   // a producer died between scheduling it and queueing it
                    } else if (m.writer.wantsTick()) {
                        m.signal();
                    }
                }
                balance(System.nanoTime());
                ticks++;
            } catch (Throwable t) {
                // never let the timer die; a failing sink records its own errors
            }
        }
    }

    /** Starts spares while fewer than {@code threads} threads are unblocked and some sink waits. */
    private synchronized void balance(long now) {
        int missing = threads - unblocked(now);
        for (int i = 0; i < missing && !ready.isEmpty(); i++) {
            Worker w = new Worker(name + "-spare-" + (++spares), true);
            workers.add(w);
            w.thread.start();
        }
    }

    /** One thread of the pool: its sleeper (producers wake it) and the start of the step it runs (0 when none). */
    private final class Worker {
        final Thread thread;
        final boolean spare;
        final ParkingReadyQueue<Member>.Sleeper sleeper;
        /** {@code System.nanoTime()} when the running step began, or 0 between steps. */
        volatile long stepSince;

        Worker(String threadName, boolean spare) {
            this.spare = spare;
            thread = new Thread(this::run, threadName);
            thread.setDaemon(true);
            thread.setContextClassLoader(null);  // long-lived, created on a host thread (see the ticker)
            sleeper = ready.sleeper(thread);
        }

        private void run() {
            try {
                work(this);
            } finally {
                ready.remove(sleeper);
            }
        }

        boolean blocked(long now) {
            long s = stepSince;
            return s != 0 && now - s >= STALL_NANOS;
        }
    }

    /** One sink served by the pool and its scheduling state ({@link TaskState}: idle, scheduled, running, ended). */
    static final class Member {
        private final SinkWriterPool pool;
        final SinkWriter writer;
        /**
         * Package-private for the tests that simulate a producer dying while scheduling. The timer
         * is its {@link TaskState#lostSchedule()} checker: a producer can die (a
         * {@code StackOverflowError}) between its compare-and-set to scheduled and its offer.
         */
        final TaskState state = new TaskState();

        private Member(SinkWriterPool pool, SinkWriter writer) {
            this.pool = pool;
            this.writer = writer;
        }

        /** Producer side (lock-free): makes sure a pool thread runs the writer soon. */
        void signal() {
            if (state.schedule()) {
                pool.ready.offerAndWake(this);
            }
        }

        /** On a pool thread that took this sink from the ready queue; nothing unless it is scheduled (an extra entry). */
        private void turn(Worker self) {
            if (!state.begin()) {
                return;                          // a second entry (see lostSchedule): run, or running, elsewhere
            }
            int s = SinkWriter.WORKED;
            int steps = 0;
            writer.runner = Thread.currentThread();
            try {
                do {
                    self.stepSince = System.nanoTime() | 1;
                    s = writer.step();
                } while (s == SinkWriter.WORKED && (++steps < TURN_STEPS || pool.ready.isEmpty()));
            } catch (Throwable t) {
                s = SinkWriter.WORKED;           // step() records its own failures; never leave the sink RUNNING
            } finally {
                self.stepSince = 0;
                writer.runner = null;
            }
            if (s == SinkWriter.ENDED) {
                state.end();
                pool.members.remove(this);
            } else if (s == SinkWriter.WORKED) {
                state.reschedule();
                pool.ready.requeue(this);        // tail: the other ready sinks go first
            } else {
                state.idle();                    // volatile store, then the writer's inputs' reads (Dekker)
                if (writer.hasInput()) {
                    signal();
                }
            }
        }
    }
}
