package dev.spool.events;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * A read-ahead window over a file for a reader that walks it forwards in small steps (a frame
 * header, then the frame): each read the window holds is a copy from memory, and one positional
 * read of {@value #WINDOW} bytes refills it. Without it, walking a file of small frames took two
 * system calls per frame (an events file of 128,000 frames: ~0.2 s on the thread that opens it
 * for appending, the application's first emit).
 *
 * <p>Reads past the window's end refill it from the read's offset; a read larger than the window
 * goes to the channel directly. The file is assumed not to change under the window (the callers
 * hold the file's write lock, or read a closed file; a file that shrinks fails the read as
 * {@link Frame#readFully} does). Not thread-safe.
 */
final class FileWindow {
    static final int WINDOW = 256 << 10;

    private final FileChannel ch;
    private final long size;
    private final ByteBuffer window = ByteBuffer.allocate(WINDOW);
    private long windowStart;
    private int windowLength;

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

    /** Reads the window from {@code at}: as much of the file as fits, at least {@code n} bytes. */
    private void fill(long at, int n) throws IOException {
        int length = (int) Math.min(WINDOW, Math.max(n, size - at));
        Frame.readFully(ch, window, at, length);
        windowStart = at;
        windowLength = length;
    }
}
