package dev.spool.internal.handoff;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The ready queue of a pool of threads, and how those threads idle: producers offer a task and wake
 * one thread; an idle thread first polls the queue briefly ("warm", no system call needed to wake
 * it), then parks until a producer wakes it or its timeout ends.
 *
 * <p><b>Assumptions.</b> Any thread calls {@link #offerAndWake}. Each pool thread registers one
 * {@link Sleeper} for itself and is the only caller of that sleeper's {@link Sleeper#sleep}; a
 * thread that ends removes its sleeper. Tasks in the queue are scheduled with a {@link TaskState}
 * so that a task stands in the queue for one turn at a time.
 *
 * <p><b>Guarantees.</b> Lock-free for producers: {@code offerAndWake} is one lock-free enqueue, one
 * volatile read of the warm count and, only when no thread is polling, one compare-and-set and one
 * unpark for the first sleeping thread. A task offered is taken within {@link #WARM_PARK_NANOS} by
 * a polling thread, or a sleeping thread is woken: the Dekker pairs are "write mine, then read
 * theirs" (a producer enqueues, then reads the warm count and each {@code SLEEPING} flag; a thread
 * raises the warm count or stores {@code SLEEPING}, then reads the queue and parks), so a task
 * never waits for a sleeper's timeout. May wake a thread that then finds nothing (harmless).
 *
 * <pre>{@code
 * ParkingReadyQueue<Task> ready = new ParkingReadyQueue<>();
 * // a pool thread:
 * ParkingReadyQueue.Sleeper me = ready.sleeper(Thread.currentThread());
 * long last = System.nanoTime();
 * while (running) {
 *     Task t = ready.poll();
 *     if (t != null) { t.run(); last = System.nanoTime(); }
 *     else if (System.nanoTime() - last < ParkingReadyQueue.WARM_NANOS) ready.pollWarmly();
 *     else me.sleep(0);
 * }
 * // a producer:
 * if (task.state.schedule()) ready.offerAndWake(task);
 * }</pre>
 */
public final class ParkingReadyQueue<T> {
    /** After its last task a thread polls every {@link #WARM_PARK_NANOS} for this long before it sleeps. */
    public static final long WARM_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    /** The poll period of a warm thread: producers need not wake it (no system call on their side). */
    public static final long WARM_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

    private final ConcurrentLinkedQueue<T> ready = new ConcurrentLinkedQueue<>();
    private final CopyOnWriteArrayList<Sleeper> sleepers = new CopyOnWriteArrayList<>();
    /** Threads polling now: a producer that sees one needs no unpark. */
    private final AtomicInteger warm = new AtomicInteger();

    /** Any thread: queues {@code task} and makes sure a pool thread takes it soon. */
    public void offerAndWake(T task) {
        ready.offer(task);
        if (warm.get() > 0) {
            return; // a polling thread takes it within WARM_PARK_NANOS
        }
        for (Sleeper s : sleepers) {
            if (s.wakeIfSleeping()) {
                return;
            }
        }
    }

    /** A pool thread that runs on: queues {@code task} at the tail without waking anyone. */
    public void requeue(T task) {
        ready.offer(task);
    }

    /** The next task, or null. */
    public T poll() {
        return ready.poll();
    }

    public boolean isEmpty() {
        return ready.isEmpty();
    }

    /** A pool thread's short idle: one park of {@link #WARM_PARK_NANOS} unless a task is queued. */
    public void pollWarmly() {
        warm.incrementAndGet(); // then the queue's read: Dekker with offerAndWake
        try {
            if (ready.isEmpty()) {
                LockSupport.parkNanos(this, WARM_PARK_NANOS);
            }
        } finally {
            warm.decrementAndGet();
        }
    }

    /** Registers {@code thread} (a pool thread, before its first sleep) as one that producers may wake. */
    public Sleeper sleeper(Thread thread) {
        Sleeper s = new Sleeper(thread);
        sleepers.add(s);
        return s;
    }

    /** Forgets a thread that ends. */
    public void remove(Sleeper s) {
        sleepers.remove(s);
    }

    /** One pool thread's sleep flag. */
    public final class Sleeper {
        private static final int AWAKE = 0;
        private static final int SLEEPING = 1;
        private final Thread thread;
        private final AtomicInteger state = new AtomicInteger(AWAKE);

        private Sleeper(Thread thread) {
            this.thread = thread;
        }

        /**
         * The owning thread only: parks until woken, or at most {@code timeoutNanos} when positive,
         * unless a task is queued. An unpark from elsewhere (a shutdown) also ends it.
         *
         * @return true when it slept the whole timeout without a producer's wake-up
         */
        public boolean sleep(long timeoutNanos) {
            state.set(SLEEPING); // volatile store, then the queue's read (Dekker with offerAndWake)
            if (!ready.isEmpty()) {
                state.set(AWAKE);
                return false;
            }
            if (timeoutNanos > 0) {
                LockSupport.parkNanos(this, timeoutNanos);
            } else {
                LockSupport.park(this);
            }
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
}
