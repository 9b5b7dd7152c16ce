package dev.spool.agent.jul;

import dev.spool.agent.internal.AgentLog;
import dev.spool.internal.handoff.CapturedRecordEncoder;
import dev.spool.internal.handoff.CapturedLogWriterPool;
import dev.spool.internal.handoff.MpscCapturedRecordQueue;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.LogRecord;

/**
 * One routed JUL {@code FileHandler} whose formatter Spool reproduces: a queue of
 * {@link JulCapture}s drained by the shared {@link CapturedLogWriterPool}, whose thread formats each with the
 * handler's {@link JulFormat} ({@link CompiledSimpleFormatter}, {@link JulXmlFormat}) and publishes the host's record again through the handler itself,
 * whose woven formatter returns that text ({@link #served}), so the handler's stream, encoding, byte count, rotation and
 * error manager work as without capture.
 *
 * <p>Threading: {@link #offer} on application threads (lock-free unless the queue is full);
 * {@link #drainHere} on any thread: it takes the handler's monitor and then the queue's lock, the
 * one order every drain uses (the writer thread's too), so a caller that already holds the monitor
 * (Java 17's {@code synchronized flush()}/{@code close()}) can drain without deadlock.
 */
final class JulCaptureLog implements CapturedRecordEncoder<JulCapture> {

    private static final int BATCH = 64;

    final Handler handler;
    final Formatter formatter;
    final JulFormat format;
    private final MpscCapturedRecordQueue<JulCapture> queue;
    private final CapturedLogWriterPool.Registration writer;
    /** Deferred messages' patterns, parsed once (used by the drainer only: under the queue's drain lock). */
    private final JulMessageFormats messageFormats = new JulMessageFormats();
    private volatile boolean retired;
    /** The record the drainer is publishing now and its text (the drainer's own: under the queue's drain lock). */
    private LogRecord serving;
    private String servingText;

    /** The line's bytes written into the handler's meter instead of through its Writer, where provably the same. */
    final JulDirectWrite direct;

    JulCaptureLog(Handler handler, Formatter formatter, JulFormat format, String name, JulCaptureSettings settings,
                  JulDirectWrite.Fields fields) {
        this.handler = handler;
        this.direct = new JulDirectWrite(fields, settings.routesCleanly());
        this.formatter = formatter;
        this.format = format;
        this.queue = new MpscCapturedRecordQueue<>(name, settings.capacity(), settings.policy(), settings.waitMillis());
        // drained by the shared pool, whose threads are not Spool's own: a rotation it runs must route the next file (JUL_METER)
        this.writer = CapturedLogWriterPool.shared().register("jul " + name, this::drainBatch, queue);
    }

    /** Whether this thread is writing this log's records now (its publish and flush come back here). */
    boolean drainingHere() {
        return queue.isDrainingThread();
    }

    boolean retired() {
        return retired;
    }

    /**
     * Hands a captured record to the writer. A caller holding the handler's monitor (a handler
     * whose {@code publish} could not be unlocked) makes room by draining itself rather than
     * waiting for a writer that needs that monitor.
     *
     * @return false when the record was dropped (the queue's policy; counted by the queue)
     */
    boolean offer(JulCapture record) {
        if (queue.tryOffer(record)) {
            return true;
        }
        if (Thread.holdsLock(handler)) {
            drainHere();
            if (queue.tryOffer(record)) {
                return true;
            }
        }
        return queue.offer(record);
    }

    /**
     * The pool's step. Unlike Logback's appender lock, a handler's monitor cannot be tried (Java has no
     * try-enter for a monitor), and it must be taken before the queue's lock on every thread (a host's
     * {@code flush()}/{@code close()} holds it when it drains): so a pool thread waits while a host
     * holds it. It never waits for nothing: an empty queue (a host's flush just drained it) is left alone.
     */
    private int drainBatch() {
        if (queue.isEmpty()) {
            return 0;
        }
        synchronized (handler) {
            return queue.drainTo(this, BATCH);
        }
    }

    /** Writes every record captured before this call through the handler, on this thread. */
    void drainHere() {
        synchronized (handler) {
            // under the monitor no other drain runs, so every record offered before is among size()
            queue.drainTo(this, Math.max(1, queue.size()));
        }
    }

    /** Drains, then ends the writer thread; later records of the handler take the host's path. */
    void retire() {
        retired = true;
        drainHere();
        writer.stop();
        AgentLog.debug("JUL capture of " + queue.name() + " ended: records " + direct.counts());
    }

    @Override
    public void encode(JulCapture record) {
        String text = format.format(record, messageFormats); // a deferred message with the log's parsed patterns
        // the host's own record again (a record made here would take a number from LogRecord's global
        // sequence, which XMLFormatter prints): the woven format returns the text (served)
        serving = record.original;
        servingText = text;
        try {
            handler.publish(record.original);
        } finally {
            serving = null;
            servingText = null;
        }
    }

    /** Whether this thread is publishing {@code record} as a captured one now. */
    boolean serving(Object record) {
        return record == serving && record != null && drainingHere();
    }

    /**
     * The woven format's answer: the text of the record this thread is publishing through this log's formatter
     * ({@code ""} when {@link JulDirectWrite} wrote its bytes into the handler's meter), else null.
     */
    String served(Object formatter, Object record) {
        if (formatter != this.formatter || record != serving || record == null || !drainingHere()) {
            return null;
        }
        String text = servingText;
        servingText = null; // served once: a second format of the record in the same publish gets the JDK's text
        return text == null ? null : direct.serve(handler, text);
    }

    MpscCapturedRecordQueue<JulCapture> queue() {
        return queue;
    }
}
