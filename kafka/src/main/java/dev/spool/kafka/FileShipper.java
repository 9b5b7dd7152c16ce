package dev.spool.kafka;

import dev.spool.events.EventTail;
import dev.spool.events.ReadProblem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiConsumer;

/**
 * Ships one event file to Kafka from one thread ({@link #run}), at least once and in file
 * order: it tails the file ({@link EventTail}: committed frames only), sends each record to one
 * partition chosen by the stream id, and advances the {@link Checkpoint} only over records Kafka
 * acknowledged. A failed send (broker gone past {@code delivery.timeout.ms}, metadata timeout)
 * closes the producer, rewinds to the last acknowledged record and resends after a back-off: the
 * resent records that had been acknowledged are the only duplicates, and their keys
 * ({@code <stream>:<ordinal>}) are the same. A record the broker refuses for good (too large, a
 * timestamp outside its bounds, invalid) is dead-lettered ({@link Refusals}): kept in a file beside
 * the checkpoint, counted, named on the Shipper bean, passed. The file is opened once it shows its
 * fingerprint ({@link FileOpening}, {@link FileFingerprint}: a damaged first frame does not stop
 * it); a file cut short under the checkpoint or under the running shipper is shipped again from
 * its start under a new stream id ({@link ShippedPosition#startOver}). The exit drain
 * ({@link #drainBy}) never treats the file as final while the host may still append, and ends
 * early when waiting cannot help ({@link ExitDrain}). Memory is bounded: at most {@link InFlightWindow#MAX_RECORDS}
 * records and {@link InFlightWindow#MAX_BYTES} bytes are sent and unacknowledged, plus the producer's
 * {@code buffer.memory}. The stream id, the acknowledged position and the checkpoint are kept by
 * {@link ShippedPosition}.
 *
 * <p>Threads: one shipper thread does all the work; the producer's I/O thread only marks
 * in-flight records done ({@link InFlightWindow.Record}, volatile) and unparks it; JMX threads read
 * its {@link #status()} (the Shipper MBean) and pause it there. No application thread ever reaches
 * this class.
 */
final class FileShipper implements Runnable {
    private static final long IDLE_NANOS = 20_000_000L;
    private static final long FIRST_BACKOFF_MILLIS = 250;
    private static final long MAX_BACKOFF_MILLIS = 10_000;

    private final Path file;
    private final ShipperSettings settings;
    private final boolean finalMode;
    private final BiConsumer<String, String> reporter;
    private final String host;

    // shipper thread only
    private EventTail tail;
    private final FileOpening opening;
    private final ExitDrain drain = new ExitDrain();
    /** Records the broker refused for good: dead-lettered, and not sent again after a failed send. */
    private final Refusals refusals;
    private final InFlightWindow inFlight = new InFlightWindow();
    private final ShippedPosition shipped;
    private long backoffMillis = FIRST_BACKOFF_MILLIS;

    // shared
    /** The producer (any thread reads it and a stop closes it) and the form of the records it sends. */
    private final ShipperProducer kafka;
    private volatile Thread thread;
    private volatile boolean stopping;
    private volatile long deadlineNanos;
    private volatile boolean finished;
    private volatile boolean complete;
    private volatile boolean fatal;
    private final ShipperStatus status;
    /** Refreshes the status's file record count and JFR report (shipper thread only). */
    private final StatusRefresh refresh;

    /**
     * @param finalMode true for a file no one writes any more (the {@code ship} command): damage is skipped at once
     * @param reporter receives (problem key, one-line message) for the {@code [spool]} log
     */
    FileShipper(Path file, ShipperSettings settings, boolean finalMode, String host, String clientId,
                BiConsumer<String, String> reporter) {
        this.file = file.toAbsolutePath().normalize();
        this.settings = settings;
        this.finalMode = finalMode;
        this.host = host;
        this.reporter = reporter;
        this.kafka = new ShipperProducer(settings, clientId, host, this.file);
        this.status = new ShipperStatus(this.file, settings.topic, kafka::current, this::wake);
        this.refresh = new StatusRefresh(status);
        this.shipped = new ShippedPosition(this.file, settings.topic, status, this::report);
        this.refusals = new Refusals(this.file, settings.topic, status, this::report);
        this.opening = new FileOpening(this.file, finalMode, this::damaged);
    }

    /** What this shipper shows (its Shipper MBean); any thread. */
    ShipperStatus status() {
        return status;
    }

    @Override
    public void run() {
        thread = Thread.currentThread();
        try {
            while (!stopping && !fatal) {
                if (deadlineNanos != 0) {
                    // Never final here: the host's threads may still append (the file is flushed, not
                    // closed), so a frame cut by the current end is one being written (ExitDrain).
                    if (caughtUp()) {
                        complete = true;
                        break;
                    }
                    if (System.nanoTime() - deadlineNanos >= 0 || (!finalMode && drainCannotHelp())) {
                        break;
                    }
                }
                try {
                    step();
                } catch (IOException | RuntimeException e) {
                    failed(e);
                }
            }
        } finally {
            finish();
        }
    }

    private void step() throws IOException {
        if (!open()) {
            idle();
            return;
        }
        if (!settle()) {
            failed(inFlight.peek().error);
            return;
        }
        if (tail.size() < Math.max(tail.offset(), shipped.acked.offset())) {
            cutUnder();
            return;
        }
        refresh.ifDue(tail);
        if (status.isPaused()) {
            shipped.checkpointIfDue(false);
            idle();
            return;
        }
        if (kafka.current() == null && !startProducer()) {
            return;
        }
        int room = inFlight.room();
        List<EventTail.Tailed> batch = room > 0 ? tail.poll(room) : List.of();
        for (EventTail.Tailed t : batch) {
            send(t);
        }
        shipped.checkpointIfDue(false);
        if (batch.isEmpty()) {
            idle();
        }
    }

    /**
     * Opens the tail and the checkpoint once the file shows its fingerprint ({@link FileFingerprint}:
     * a valid first frame, or settled damage before a valid frame); false while it does not.
     */
    private boolean open() throws IOException {
        if (tail != null) {
            return true;
        }
        if (!Files.isRegularFile(file)) {
            return false;
        }
        shipped.lockCheckpoint();
        EventTail t = opening.current();
        String fp = t == null ? null : opening.fingerprint(t);
        if (fp == null) {
            if (t != null && finalMode && t.firstValidFrameAt() < 0) {
                tail = t; // no valid frame: the ship command has nothing to send (damage is reported by the tail)
                shipped.stream = "";
                shipped.acked = EventTail.Position.START;
                status.ackedEnd = shipped.acked.offset();
                return true;
            }
            return false; // kept open (FileOpening)
        }
        EventTail.Position from = shipped.resume(t, fp, host);
        t.seek(from);
        tail = t;
        shipped.acked = from;
        status.ackedOrdinal = from.ordinal();
        status.readOrdinal = from.ordinal();
        status.ackedEnd = from.offset();
        return true;
    }

    /**
     * The file became shorter than what was read or acknowledged (cut under a running shipper): what
     * was shipped past the new end is not in the file any more. Start it over from its start under
     * a new stream id, as a later start would ({@link ShippedPosition#startOver}).
     */
    private void cutUnder() throws IOException {
        String why = file + " is " + tail.size() + " bytes now, shorter than the " + Math.max(tail.offset(),
                shipped.acked.offset()) + " already read";
        closeProducer();
        inFlight.clear();
        refusals.clear();
        shipped.startOver(shipped.stream, why);
        tail.seek(EventTail.Position.START);
        status.readOrdinal = 0;
        status.ackedOrdinal = 0;
        status.ackedEnd = EventTail.Position.START.offset();
        shipped.checkpointIfDue(true);
    }

    private boolean startProducer() {
        try {
            kafka.start();
        } catch (RuntimeException e) {
            fatal = true;
            String why = "the Kafka producer cannot start with these settings: " + rootMessage(e);
            status.error(why);
            report("producer-settings", "shipping of " + file + " to Kafka is off: " + why);
            return false;
        }
        drain.producerStarted();
        try {
            kafka.choosePartition(shipped.stream);
            return true;
        } catch (RuntimeException e) {
            failed(e);
            return false;
        }
    }

    private void send(EventTail.Tailed t) throws IOException {
        byte[] value = kafka.value(t);
        String keyText = shipped.stream + ':' + t.ordinal();
        InFlightWindow.Record f = inFlight.add(t, keyText, value, thread);
        Exception refusal = refusals.of(t.ordinal());
        if (refusal != null) {
            status.readOrdinal = t.ordinal() + 1;
            f.onCompletion(null, refusal); // not sent again: it is dead-lettered when settled, in file order
            return;
        }
        status.readOrdinal = t.ordinal() + 1;
        kafka.send(t, keyText, value, f);
    }

    /** Retires settled records from the head; false when the head failed. */
    private boolean settle() {
        for (InFlightWindow.Record h; (h = inFlight.peek()) != null; ) {
            int s = h.state;
            if (s == InFlightWindow.Record.PENDING) {
                return true;
            }
            if (s == InFlightWindow.Record.FAILED) {
                return false;
            }
            if (s == InFlightWindow.Record.REFUSED && !refusals.keep(h)) {
                return false; // not kept: retried as a failure, never passed silently
            }
            inFlight.retire();
            if (s == InFlightWindow.Record.ACKED) {
                status.shippedOne();
                backoffMillis = FIRST_BACKOFF_MILLIS;
            }
            if (h.resume != null) {
                shipped.acked(h.resume, h.lastFrameAt, h.lastFrameCrc);
            }
            status.ackedOrdinal = h.ordinal + 1;
            status.ackedEnd = h.end;
        }
        return true;
    }

    /** A failure: close the producer, rewind to the last acknowledged record, back off; the next step restarts. */
    private void failed(Throwable e) {
        String client = ClientLog.last();
        status.retry(rootMessage(e) + (client == null ? "" : "; the Kafka client last said: " + client));
        closeProducer();
        settle();
        refusals.remember(inFlight);
        inFlight.clear();
        if (tail != null) {
            tail.seek(shipped.acked);
            status.readOrdinal = shipped.acked.ordinal();
        }
        shipped.checkpointIfDue(true);
        sleep(backoffMillis);
        backoffMillis = Math.min(MAX_BACKOFF_MILLIS, backoffMillis * 2);
    }

    private void closeProducer() {
        kafka.close(Duration.ZERO);
    }

    /** Everything up to the file's end is acknowledged, or the file has no valid frame to ship. */
    private boolean caughtUp() {
        try {
            settle();
            if (tail == null) {
                return opening.nothingToShip();
            }
            return inFlight.isEmpty() && tail.atEnd();
        } catch (IOException e) {
            return false;
        }
    }

    /** A live drain that waiting cannot help any more ({@link ExitDrain}): quiet, or no broker to talk to. */
    private boolean drainCannotHelp() {
        if (drain.hopeless(status)) {
            return true;
        }
        try {
            // quiet counts only while records could move: not while the producer starts (metadata, a new topic)
            return tail != null && drain.quiet(tail.size(), tail.offset(), status.ackedOrdinal,
                    !inFlight.isEmpty() || kafka.current() == null);
        } catch (IOException e) {
            return false;
        }
    }

    private void finish() {
        refresh.last(tail);
        kafka.close(Duration.ofNanos(deadlineNanos == 0 ? 0 : Math.max(0, deadlineNanos - System.nanoTime())));
        settle();
        shipped.checkpointIfDue(true);
        try {
            shipped.closeCheckpoint();
            if (tail != null && (finalMode || stopping || deadlineNanos != 0)) {
                tail.close(); // at exit only: closing a channel of the file can drop the writer's lock on it
            }
            if (finalMode || stopping || deadlineNanos != 0) {
                opening.closeStale();
            }
        } catch (IOException ignored) {
            // best effort at the end
        }
        finished = true;
    }

    private void damaged(ReadProblem p) {
        String why = "skipped damage: " + p;
        status.error(why);
        report("damage:" + p.offset(), why);
    }

    private void report(String key, String message) {
        reporter.accept(file + ":" + key, message);
    }

    private void idle() {
        LockSupport.parkNanos(this, IDLE_NANOS);
    }

    /** Backs off; cut short by {@link #stop} and, on a live shipper, by the start of its exit drain. */
    private void sleep(long millis) {
        boolean draining = deadlineNanos != 0;
        long end = System.nanoTime() + millis * 1_000_000;
        for (long left; (left = end - System.nanoTime()) > 0 && !stopping
                && (finalMode || draining || deadlineNanos == 0); ) {
            LockSupport.parkNanos(left);
        }
    }

    static String rootMessage(Throwable e) {
        Throwable r = e;
        while (r.getCause() != null && r.getCause() != r) {
            r = r.getCause();
        }
        return r == e ? String.valueOf(e) : e + " (" + r + ")";
    }

    // ---- control (any thread) ----

    /** Asks the shipper to ship what is there and stop by {@code deadline} (System.nanoTime), at the latest. */
    void drainBy(long deadline) {
        drain.begin();
        deadlineNanos = deadline == 0 ? 1 : deadline;
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /** Stops now; the producer is closed without waiting. */
    void stop() {
        stopping = true;
        kafka.closeUnderSender();
    }

    /**
     * Any thread: true when a live drain cannot be helped by waiting, even while the shipper thread
     * is blocked in the producer (no broker connection and nothing acknowledged for a while).
     */
    boolean drainHopeless() {
        return !finalMode && drain.hopeless(status);
    }

    boolean finished() { return finished; }
    /** True when it stopped because everything up to the file's end was acknowledged. */
    boolean complete() { return complete; }
    boolean fatal() { return fatal; }

    /** Unparks the shipper thread (a resume after a pause). */
    private void wake() {
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }
}
