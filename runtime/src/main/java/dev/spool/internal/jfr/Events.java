package dev.spool.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;

/** Spool's JFR event types (one descriptor class; each field is what JMC and VisualVM show). */
final class Events {

    private Events() {}

    @Name("dev.spool.BufferFlush")
    @Label("Buffer Flush")
    @Category({"Spool", "Buffer"})
    @Description("One flush of the write-behind buffer: dirty files written with atomic renames")
    @StackTrace(false)
    static final class BufferFlush extends Event {
        @Label("Trigger") @Description("timer, capacity, explicit (flush(), a scope's close, kill switch) or exit")
        String trigger;
        @Label("Files Written") int files;
        @Label("Estimated Bytes") @Description("estimated size of the dirty files at the flush's start")
        @DataAmount long bytes;
        @Label("Conflicts") int conflicts;
        @Label("Failures") int failures;
    }

    @Name("dev.spool.Conflict")
    @Label("Conflict")
    @Category({"Spool", "Buffer"})
    @Description("A buffered file had been changed on disk by someone else; Spool's content went beside it")
    @StackTrace(false)
    static final class Conflict extends Event {
        @Label("File") String path;
        @Label("Conflict File") String conflictFile;
    }

    @Name("dev.spool.JournalRecovery")
    @Label("Journal Recovery")
    @Category({"Spool", "Sink"})
    @Description("The open of an event file, or the start of routing for a JUL log file (or spool recover),"
            + " replayed what a killed writer's journal still held")
    @StackTrace(false)
    static final class JournalRecovery extends Event {
        @Label("File") String path;
        @Label("Records") long records;
        @Label("Bytes") @DataAmount long bytes;
    }

    @Name("dev.spool.WriteError")
    @Label("Write Error")
    @Category({"Spool", "Errors"})
    @Description("Writing a buffered file or a sink failed; the buffer keeps the content, the sink retries")
    @StackTrace(false)
    static final class WriteError extends Event {
        @Label("Component") @Description("buffer or sink") String component;
        @Label("File") String path;
        @Label("Message") String message;
    }

    @Name("dev.spool.SinkWrite")
    @Label("Sink Write Batch")
    @Category({"Spool", "Sink"})
    @Description("One write of the sink's writer thread: filled buffers or a direct payload")
    @StackTrace(false)
    static final class SinkWrite extends Event {
        @Label("File") String path;
        @Label("Records") long records;
        @Label("Bytes") @DataAmount long bytes;
    }

    @Name("dev.spool.SinkStatistics")
    @Label("Sink Statistics")
    @Category({"Spool", "Sink"})
    @Description("Periodic counters and recent rates of each open sink")
    @Period("1 s")
    @StackTrace(false)
    static final class SinkStatistics extends Event {
        @Label("File") String path;
        @Label("Records Written") long eventsWritten;
        @Label("Bytes Written") @DataAmount long bytesWritten;
        @Label("Records per Second") double eventsPerSecond;
        @Label("Bytes per Second") @DataAmount(DataAmount.BYTES) double bytesPerSecond;
        @Label("Pending Bytes") @DataAmount long pendingBytes;
        @Label("Dropped") long dropped;
        @Label("Errors") long errors;
    }

    @Name("dev.spool.Drop")
    @Label("Records Dropped")
    @Category({"Spool", "Sink"})
    @Description("Records a sink dropped since the last period (policy drop with full buffers, or a closed sink)")
    @StackTrace(false)
    static final class Drop extends Event {
        @Label("File") String path;
        @Label("Dropped") long dropped;
        @Label("Policy") String policy;
    }

    @Name("dev.spool.Fallback")
    @Label("Fallback to the Host's Path")
    @Category({"Spool", "Errors"})
    @Description("A failure inside Spool; the call ran the application's own code instead")
    static final class Fallback extends Event {
        @Label("Message") String message;
    }

    @Name("dev.spool.KafkaShipping")
    @Label("Kafka Shipping")
    @Category({"Spool", "Kafka"})
    @Description("The state of one event file's shipper to Kafka: once a second while it runs, and when it stops")
    @StackTrace(false)
    static final class KafkaShipping extends Event {
        @Label("File") String path;
        @Label("Topic") String topic;
        @Label("Lag Records") @Description("records in the file not yet acknowledged by Kafka, unread ones included")
        long lagRecords;
        @Label("Lag Bytes") @Description("file bytes after the last acknowledged record") @DataAmount long lagBytes;
        @Label("Shipped") @Description("records acknowledged since the shipper started") long shipped;
        @Label("Connected") boolean connected;
    }
}
