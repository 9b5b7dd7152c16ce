package dev.spool.sink;

/**
 * Starts a {@link ByteSink}'s writer and ties the sink to the JVM's shutdown: the writer takes
 * turns in the shared {@link SinkWriterPool}, or runs on a thread of its own
 * ({@code spool-sink-<name>}) when there is no pool; a shutdown hook
 * ({@code spool-sink-shutdown-<name>}) drains the sink at exit ({@link ByteSink#shutdown()}) and
 * is removed again when the owner closes the sink.
 *
 * <p>{@link #start} runs once, on the thread that creates the sink, as the last step of the
 * sink's constructor: every field it sets before is published by the pool's queue or by the
 * thread's start. {@link #removeHook} runs on the thread that closes the sink, after
 * {@link SinkClosing#close()}. No lock is held by either.
 */
final class SinkStart {
    private SinkStart() {
    }

    /**
     * Starts {@code writer} for {@code sink} (in {@code pool}, or on a thread of its own when
     * {@code pool} is null) and registers the sink's shutdown hook. A sink opened while the JVM
     * is already shutting down gets no hook: it is shut down here, written through from the start
     * as every sink is once the JVM shuts down.
     * @return the registered hook, or null when none was registered
     */
    static Thread start(ByteSink sink, SinkWriter writer, SinkWriterPool pool) {
        if (pool != null) {
            writer.member = pool.register(writer);   // the sink's fields are all set: the pool's queue publishes them
        } else {
            Thread own = new Thread(writer, "spool-sink-" + sink.name);
            own.setDaemon(true);
            own.start();
        }
        Thread hook = new Thread(sink::shutdown, "spool-sink-shutdown-" + sink.name);
        boolean exiting = false;
        try {
            Runtime.getRuntime().addShutdownHook(hook);
        } catch (IllegalStateException e) {
            hook = null;
            exiting = true; // opened by a shutdown hook: no hook of its own would ever drain it
        } catch (SecurityException e) {
            hook = null;
        }
        if (exiting) {
            sink.shutdown(); // written through from the start, as every sink is once the JVM shuts down
        }
        return hook;
    }

    /** Removes {@code hook} (null: none) from the JVM, unless it is the thread calling: the hook itself closing the sink. */
    static void removeHook(Thread hook) {
        if (hook != null && Thread.currentThread() != hook) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // The JVM is shutting down; the hook is running or done.
            }
        }
    }
}
