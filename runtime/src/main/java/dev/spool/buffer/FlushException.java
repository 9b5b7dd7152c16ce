package dev.spool.buffer;

import java.nio.file.Path;
import java.util.List;

/**
 * A flush that could not write every file. Lists each failed file with its cause and the content
 * that was not saved; that content also stays buffered and is retried by the next flush.
 * Unchecked so that {@code try (var s = Spool.buffered())} needs no catch clause.
 */
public final class FlushException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * One file that was not written.
     * @param file its real path
     * @param cause why it was not written
     * @param unsavedContent the content that was not saved (null if encoding failed)
     */
    public record Failure(Path file, Throwable cause, byte[] unsavedContent) {}

    private final transient List<Failure> failures;
    /** Files the same flush did write. */
    private final int filesWritten;

    FlushException(int filesWritten, List<Failure> failures) {
        super(message(filesWritten, failures), failures.get(0).cause());
        this.failures = List.copyOf(failures);
        this.filesWritten = filesWritten;
        for (int i = 1; i < failures.size(); i++) addSuppressed(failures.get(i).cause());
    }

    private static String message(int written, List<Failure> failures) {
        StringBuilder sb = new StringBuilder().append(failures.size()).append(" file(s) not written (")
                .append(written).append(" written); content kept for retry:");
        for (Failure f : failures) sb.append("\n  ").append(f.file()).append(": ").append(f.cause());
        return sb.toString();
    }

    /** @return every failed file with its cause and unsaved content */
    public List<Failure> failures() { return failures; }

    /** @return how many files the same flush did write */
    public int filesWritten() { return filesWritten; }
}
