package dev.spool.kafka;

import java.net.InetAddress;

/** This machine's name for the {@code host} header and the stream id; resolved on a shipper thread, never the host's. */
final class Hosts {
    private Hosts() {
    }

    static String name() {
        String env = System.getenv("HOSTNAME");
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return env != null && !env.isBlank() ? env : "localhost";
        }
    }
}
