package dev.spool.events;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * A read-ahead window over a file for a reader that walks it forwards in small steps (a frame
 * header, then the frame): each read the window holds is a copy from memory, and one positional
 * read refills it, of {@value #FIRST_FILL} bytes after a {@link #drop}, doubling up to
 * {@value #WINDOW}. Without it, walking a file of small frames took two system calls per frame
 * (an events file of 128,000 frames: ~0.2 s).
 *
 * <p>Reads past the window's end refill it from the read's offset; a read larger than the window
 * goes to the channel directly. What the window holds may be older than the file: a reader of a
 * file still being written (a live memory-mapped writer fills its zero padding with frames)
 * {@linkplain #drop drops} the window before it calls anything damage or padding, and reads
 * again. Not thread-safe.
 */
final class FileWindow {
    static final int WINDOW = 256 << 10;
    /**
     * The first fill after a {@link #drop}: a reader that stops after a few frames (a tail's small
     * poll) reads little more than it needs; one that walks on gets the whole window in five fills.
     */
    static final int FIRST_FILL = 16 << 10;

    private final FileChannel ch;
    private long size;
    private final ByteBuffer window = ByteBuffer.allocate(WINDOW);
    private long windowStart;
    private int windowLength;
    /** The next fill's size: {@link #FIRST_FILL} after a {@link #drop}, doubling to {@link #WINDOW}. */
    private int fillBytes = FIRST_FILL;

    FileWindow(FileChannel ch, long size) {
        this.ch = ch;
        this.size = size;
    }

    /** Fills {@code b} with {@code n} bytes of the file from {@code at}, flipped for reading. */
    void readFully(ByteBuffer b, long at, int n) throws IOException {
        if (n > WINDOW) {
            Frame.readFully(ch, b, at, n);
            return;
        }
        if (at < windowStart || at + n > windowStart + windowLength) {
            fill(at, n);
        }
        b.clear().limit(n);
        b.put(0, window, (int) (at - windowStart), n);
        b.position(0);
    }

    /** Forgets what the window holds: the next read comes from the file. */
    void drop() {
        windowLength = 0;
        fillBytes = FIRST_FILL;
    }

    /** {@linkplain #drop Drops} the window and reads up to {@code size} from now on (a file that grew). */
    void reset(long size) {
        this.size = size;
        drop();
    }

    /**
     * Reads the window from {@code at}: as much of the file as fits, at least {@code n} bytes. A
     * file that now ends earlier than its size when the window was made fails only a read that
     * needs the missing bytes (as {@link Frame#readFully} would).
     */
    private void fill(long at, int n) throws IOException {
        int want = (int) Math.max(n, Math.min(fillBytes, size - at));
        fillBytes = Math.min(WINDOW, fillBytes * 2);
        window.clear().limit(want);
        windowLength = 0;
        while (window.hasRemaining()) {
            if (ch.read(window, at + window.position()) < 0) {
                if (window.position() < n) {
                    throw new IOException("file shrank while reading at offset " + (at + window.position()));
                }
                break;
            }
        }
        windowStart = at;
        windowLength = window.position();
    }
}
