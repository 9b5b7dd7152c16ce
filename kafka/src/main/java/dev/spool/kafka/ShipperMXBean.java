package dev.spool.kafka;

/**
 * {@code dev.spool:type=Shipper,name="<event file>"}: one event file shipped to Kafka (SPEC,
 * "MBeans"). Lag is what the broker has not acknowledged yet.
 */
public interface ShipperMXBean {
    /** The event file shipped (absolute). */
    String getPath();

    /** The Kafka topic it is shipped to. */
    String getTopic();

    /** True while the producer has a connection to a broker. */
    boolean isConnected();

    /**
     * Records in the file not yet acknowledged by Kafka: those sent and waiting, and those not read
     * yet (counted from frame headers at most 100 ms ago).
     */
    long getLagRecords();

    /** Of those, the records read and sent, waiting for Kafka (bounded: 10,000 records, 16 MiB). */
    long getInFlightRecords();

    /** Bytes of the file after the last acknowledged record: read or not, not shipped yet. */
    long getLagBytes();

    /** Records acknowledged by Kafka since the shipper started. */
    long getShipped();

    /** Times shipping restarted from the last acknowledged record after a failure (broker down, timeout). */
    long getRetries();

    /** Problems that lose or skip something: a record too large for the broker, damaged frames, a bad setting. */
    long getErrors();

    /** The last failure or problem, with what the Kafka client reported; empty when none. */
    String getLastError();

    /**
     * Records Kafka refused for good (a timestamp outside the broker's bounds, an invalid or too
     * large record): each is counted here and in {@link #getErrors()}, kept in the dead-letter file
     * beside the checkpoint ({@code <file>.kafka-<topic>.dead-letter}, one JSON line each) and
     * passed; shipping goes on with the next record.
     */
    long getDeadLetters();

    /** The last record dead-lettered: its key, offset, the broker's reason and the dead-letter file; empty when none. */
    String getLastDeadLetter();

    /** Epoch milliseconds of the last acknowledgement; 0 before the first. */
    long getLastAckMillis();

    /** True between {@link #pause()} and {@link #resume()}. */
    boolean isPaused();

    /** Stops sending (records already sent are still acknowledged); the file keeps growing, lag with it. */
    void pause();

    /** Continues from where shipping stopped. */
    void resume();
}
