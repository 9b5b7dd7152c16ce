package dev.spool.agent.internal;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The one file a log's sink writes now (the sink's delegate, switched at each roll by
 * {@link LogSink}).
 *
 * <p>A file the host closed under the sink: Logback's {@code FileAppenderResilienceTest} closes the
 * appender's {@code FileOutputStream} through its channel while records it already accepted are
 * still in the sink. Without the agent those records were in the file before the close. So when a
 * write fails on a {@code FileOutputStream} whose channel is closed (or on the reopened file's
 * channel, which an interrupted writer closes), the same file (same path, same file key as when it
 * was attached, and the size the sink left it at; never created) is opened again to append, and the failure is
 * still thrown: the sink records it (the host's next write gets the error, as a plain write would,
 * and Logback starts its own recovery) and its retry writes the held bytes into the reopened file.
 * A file moved, replaced or deleted meanwhile is not reopened: the sink keeps retrying, and its bytes
 * go to the recovery folder at close, as before.
 *
 * <p>Thread-safe: writes come from the sink's writer (one at a time), {@link #attach}/{@link #detach}
 * from the log's owner; a reopen and a detach exclude each other.
 */
final class LogFileSwitch extends OutputStream {

    private volatile OutputStream target;
    private String path; // guarded by this
    private Object fileKey; // guarded by this: null when unknown (no reopen)
    /** The file's size as the sink left it: its size at attach plus every byte written through here. */
    private volatile long size = -1;
    private OutputStream reopened; // guarded by this
    private FileChannel reopenedChannel; // guarded by this

    /** Points the sink at {@code file}, written at {@code path} (its file key and size are read now). */
    synchronized void attach(OutputStream file, String path) {
        closeReopened();
        this.target = file;
        this.path = path;
        BasicFileAttributes now = attributesOf(path);
        this.fileKey = now == null ? null : now.fileKey();
        this.size = now == null ? -1 : now.size();
    }

    /** The file's size as the sink left it (its size at attach plus every byte written here), or -1 when unknown. */
    long size() {
        return size;
    }

    /** No file: later writes fail until the next {@link #attach}. */
    synchronized void detach() {
        target = null;
        closeReopened();
    }

    private OutputStream target() throws IOException {
        OutputStream t = target;
        if (t == null) {
            throw new IOException("the log has no open file (closed or between two files of a roll)");
        }
        return t;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        OutputStream t = target();
        try {
            t.write(b, off, len);
            long at = size;
            if (at >= 0) {
                size = at + len; // one writer at a time (the sink's)
            }
        } catch (IOException e) {
            reopenIfClosedUnder(t);
            throw e; // recorded by the sink, which retries (into the reopened file)
        }
    }

    @Override
    public void flush() throws IOException {
        OutputStream t = target;
        if (t != null) {
            t.flush();
        }
    }

    @Override
    public void close() {
        // each file is closed when the log moves on from it (LogSink.detach), not with the sink
    }

    private void reopenIfClosedUnder(OutputStream failed) {
        synchronized (this) {
            boolean closedUnder = failed instanceof FileOutputStream fos
                    ? !fos.getChannel().isOpen()
                    : failed == reopened && reopenedChannel != null && !reopenedChannel.isOpen(); // an interrupted writer's
            if (!closedUnder) {
                return; // not closed under us (a full disk, an I/O error): the sink's retries as before
            }
            // the same file as the sink left it: its key (device, inode) and its size, since an inode
            // number may be handed out again to a file made at the same path
            BasicFileAttributes now;
            if (target != failed || path == null || fileKey == null || size < 0
                    || (now = attributesOf(path)) == null || !fileKey.equals(now.fileKey()) || now.size() != size) {
                return;
            }
            FileChannel again = null;
            try {
                again = FileChannel.open(Path.of(path), StandardOpenOption.WRITE, StandardOpenOption.APPEND); // never creates
                BasicFileAttributes opened = attributesOf(path);
                if (opened == null || !fileKey.equals(opened.fileKey())) { // replaced between the check and the open
                    again.close();
                    return;
                }
            } catch (IOException | RuntimeException e) {
                closeQuietly(again);
                return;
            }
            closeReopened();
            reopenedChannel = again;
            reopened = Channels.newOutputStream(again);
            target = reopened;
            AgentLog.debug("the log file " + path + " was closed under Spool's sink: reopened to append what it held");
        }
    }

    private void closeReopened() {
        OutputStream r = reopened;
        reopened = null;
        reopenedChannel = null;
        closeQuietly(r);
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception e) {
                // nothing of the log's is in it: written bytes are in the file
            }
        }
    }

    /** The file's attributes (one stat: its key and size), or null when it cannot be read or has no file key. */
    private static BasicFileAttributes attributesOf(String path) {
        try {
            BasicFileAttributes a = path == null ? null : Files.readAttributes(Path.of(path), BasicFileAttributes.class);
            return a == null || a.fileKey() == null ? null : a;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
