package dev.spool.kafka;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The stream id in every record key ({@code <stream>:<ordinal>}). A file's fingerprint is a hash
 * of its first frame's header (its timestamp, thread and payload CRC32C), or, when that frame is
 * damaged, of the first valid frame's header and offset: it names the file's content, so a new
 * file under the same name is told apart. A file cut short under its checkpoint keeps its
 * fingerprint and is shipped again under a {@link #restarted} stream id. The stream id hashes the host name
 * with it (two hosts' files never share one) and is kept in the checkpoint, so it stays the same
 * across restarts and for the {@code ship} command.
 */
final class StreamIds {
    private StreamIds() {
    }

    static String fingerprint(byte[] firstFrameHeader) {
        return hex(sha256(firstFrameHeader));
    }

    /**
     * The fingerprint of a file whose first frame is damaged: its first valid frame's header and
     * offset (never equal to a {@link #fingerprint} of a sound file's first frame).
     */
    static String fingerprintAfterDamage(long at, byte[] frameHeader) {
        byte[] tag = ("damaged-start@" + at + '\n').getBytes(StandardCharsets.UTF_8);
        byte[] b = new byte[tag.length + frameHeader.length];
        System.arraycopy(tag, 0, b, 0, tag.length);
        System.arraycopy(frameHeader, 0, b, tag.length, frameHeader.length);
        return hex(sha256(b));
    }

    /** The stream id of a file shipped again from its start after it was cut short under {@code old}'s position. */
    static String restarted(String old) {
        return hex(sha256(("restarted\n" + old).getBytes(StandardCharsets.UTF_8)));
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
