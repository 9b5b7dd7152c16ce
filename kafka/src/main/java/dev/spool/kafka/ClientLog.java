package dev.spool.kafka;

/**
 * Where the Kafka client's own log lines go: nowhere near the host's logging (see
 * {@link ClientLogProvider}). Warnings and errors are kept (the last one names what the client
 * saw, e.g. a broker it cannot reach, and a shipper quotes it in its {@code LastError}); with
 * {@code spool.kafka.log.client=true} they are also printed as {@code [spool] kafka client:} lines.
 * Thread-safe.
 */
final class ClientLog {
    private static volatile boolean print;
    private static volatile String last;

    private ClientLog() {
    }

    static void print(boolean on) {
        print = on;
    }

    /** The last warning or error the client logged, or null. */
    static String last() {
        return last;
    }

    static void warn(String logger, String message, Throwable t) {
        String line = message + (t == null ? "" : " (" + t + ")");
        last = line;
        if (print) {
            System.err.println("[spool] kafka client: " + logger.substring(logger.lastIndexOf('.') + 1) + ": " + line);
        }
    }
}
