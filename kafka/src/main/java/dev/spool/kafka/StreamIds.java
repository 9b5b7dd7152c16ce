package dev.spool.kafka;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The stream id in every record key ({@code <stream>:<ordinal>}). A file's fingerprint is a hash
 * of its first frame's header (its timestamp, thread and payload CRC32C): it names the file's
 * content, so a new file under the same name is told apart. The stream id hashes the host name
 * with it (two hosts' files never share one) and is kept in the checkpoint, so it stays the same
 * across restarts and for the {@code ship} command.
 */
final class StreamIds {
    private StreamIds() {
    }

    static String fingerprint(byte[] firstFrameHeader) {
        return hex(sha256(firstFrameHeader));
    }

    static String stream(String host, String fingerprint) {
        return hex(sha256((host + '\n' + fingerprint).getBytes(StandardCharsets.UTF_8)));
    }

    private static byte[] sha256(byte[] b) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(b);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The first 8 bytes as 16 hex digits. */
    private static String hex(byte[] b) {
        StringBuilder s = new StringBuilder(16);
        for (int i = 0; i < 8; i++) {
            s.append(Character.forDigit((b[i] >> 4) & 15, 16)).append(Character.forDigit(b[i] & 15, 16));
        }
        return s.toString();
    }
}
