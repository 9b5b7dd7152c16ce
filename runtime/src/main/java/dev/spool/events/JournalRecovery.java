package dev.spool.events;

import dev.spool.sink.JournalLayout;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Replays the journal ({@link JournalLayout}) a killed writer left beside an event file into it,
 * after the last write that reached the file, exactly once, in order, each frame whole (issue 33).
 * Runs with the event file open and locked ({@link EventFiles#openForAppend}), so no live writer
 * owns the journal. Not thread-safe; one call per open.
 *
 * <p><b>Steps.</b> The file's data ends where its size says, or where a killed {@code mmap}
 * writer's zero padding starts. The journal's pending record says which write was under way: if the data holds
 * all its bytes it is done (its region use is not replayed again); if not, the file is cut back to
 * where it began (its bytes, torn, were never acknowledged beyond what the region still holds).
 * The region uses still marked, oldest first, are scanned for whole frames (header plausible, CRC
 * right; a frame a kill cut short, or space reserved and not yet copied, is stepped over), the
 * replay is recorded as pending ({@code REPLAY}) before it is written, and the journal is removed
 * after. A kill during recovery is recovered the same way by the next open.
 *
 * <p><b>A journal that is not this file's</b> (the file was moved, replaced or deleted since: its
 * identity or the bytes just before the journal's last write differ, or the file is shorter than
 * that write's start) is never written into the file: it is renamed {@code <journal>.orphan-<ms>}
 * and reported. A damaged journal (bad header) is treated the same way.
 */
final class JournalRecovery {
    /** What a recovery did: frames and bytes replayed; a problem to report (else null); whether the journal's name is free. */
    record Result(long frames, long bytes, String problem, boolean pathFree) {
        static final Result NOTHING = new Result(0, 0, null, true);
    }

    private JournalRecovery() {
    }

    static Result recover(Path file, FileChannel ch, String fileKey) throws IOException {
        Path jp = JournalLayout.journalOf(file);
        if (!Files.isRegularFile(jp, LinkOption.NOFOLLOW_LINKS)) {   // a symlink is never followed: creating fails then
            return Result.NOTHING;
        }
        String wrong;
        try (FileChannel jc = FileChannel.open(jp, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = jc.size();
            if (size < JournalLayout.PAGE || size > Integer.MAX_VALUE) {
                wrong = "its size (" + size + " bytes) is not a journal's";
            } else {
                MappedByteBuffer m = jc.map(FileChannel.MapMode.READ_WRITE, 0, size);
                m.order(ByteOrder.LITTLE_ENDIAN);
                wrong = checkHeader(m, size, fileKey);
                if (wrong == null) {
                    return replay(file, ch, jp, m);
                }
            }
        }
        return orphan(jp, wrong);
    }

    private static String checkHeader(ByteBuffer m, long size, String fileKey) {
        byte[] magic = new byte[JournalLayout.MAGIC.length];
        m.get(0, magic);
        if (!Arrays.equals(magic, JournalLayout.MAGIC) || m.getInt(JournalLayout.VERSION_OFFSET) != JournalLayout.VERSION) {
            return "no SPOOLJNL version 1 header";
        }
        int regions = m.getInt(JournalLayout.REGION_COUNT_OFFSET);
        int regionBytes = m.getInt(JournalLayout.REGION_BYTES_OFFSET);
        if (regions <= 0 || regionBytes <= 0
                || JournalLayout.headerBytes(regions) + (long) regions * regionBytes != size) {
            return "its header does not match its size (" + regions + " regions of " + regionBytes + " bytes)";
        }
        int n = m.getInt(JournalLayout.KEY_LENGTH_OFFSET);
        if (n < 0 || n > JournalLayout.KEY_MAX) {
            return "its file key is damaged";
        }
        byte[] key = new byte[n];
        m.get(JournalLayout.KEY_OFFSET, key);
        String k = new String(key, StandardCharsets.UTF_8);
        if (!k.isEmpty() && !fileKey.isEmpty() && !k.equals(fileKey)) {
            return "it was written for file " + k + ", this file is " + fileKey;
        }
        return null;
    }

    private static Result replay(Path file, FileChannel ch, Path jp, ByteBuffer m) throws IOException {
        long kind = m.getLong(JournalLayout.PENDING_KIND_OFFSET);
        long seq = m.getLong(JournalLayout.PENDING_SEQ_OFFSET);
        long pos = m.getLong(JournalLayout.PENDING_POS_OFFSET);
        long len = m.getLong(JournalLayout.PENDING_LEN_OFFSET);
        long data = dataEnd(ch);
        long end = data;
        long skip = 0;
        if (kind != JournalLayout.NONE) {
            String wrong = checkTail(ch, m, pos, len, data);
            if (wrong != null) {
                return orphan(jp, wrong);
            }
            boolean done = data >= pos + len;
            if (kind == JournalLayout.REPLAY && done) {
                Files.delete(jp);                // a recovery killed after its writes: nothing left to do
                return Result.NOTHING;
            }
            if (!done) {
                ch.truncate(pos);                // the write under way never completed: its bytes go again
                end = pos;
            }
            if (kind == JournalLayout.BUFFER && done || kind == JournalLayout.REPLAY) {
                skip = seq;                      // that region use is in the file already
            }
        }
        Found found = frames(m, skip);
        List<ByteBuffer> frames = found.runs();
        long bytes = 0;
        for (ByteBuffer f : frames) {
            bytes += f.remaining();
        }
        if (!frames.isEmpty()) {
            if (ch.size() > end) {
                ch.truncate(end);                // a killed mmap writer's zero padding: the replay follows the data
            }
            byte[] tail = readTail(ch, end);
            m.putLong(JournalLayout.PENDING_KIND_OFFSET, JournalLayout.NONE);
            m.putLong(JournalLayout.PENDING_SEQ_OFFSET, skip);
            m.putLong(JournalLayout.PENDING_POS_OFFSET, end);
            m.putLong(JournalLayout.PENDING_LEN_OFFSET, bytes);
            m.put(JournalLayout.TAIL_OFFSET, tail);
            m.putInt(JournalLayout.TAIL_LENGTH_OFFSET, tail.length);
            m.putLong(JournalLayout.PENDING_KIND_OFFSET, JournalLayout.REPLAY);
            long at = end;
            for (ByteBuffer f : frames) {
                while (f.hasRemaining()) {
                    at += ch.write(f, at);
                }
            }
        }
        Files.delete(jp);
        return new Result(found.frames(), bytes, null, true);
    }

    /**
     * Where the file's data ends: its size, or where the zero padding a killed {@code mmap} writer
     * left starts (it copies into zeros allocated ahead, so its size says nothing about what a
     * write reached: a torn copy is data, then zeros). Found the way an open finds where to append.
     */
    private static long dataEnd(FileChannel ch) throws IOException {
        long size = ch.size();
        return size <= RecordDescriptor.FILE_HEADER_LENGTH ? size : EventFiles.endOfData(ch, size);
    }

    /** Why the file is not the one the journal's pending write went to, or null when it is. */
    private static String checkTail(FileChannel ch, ByteBuffer m, long pos, long len, long dataEnd) throws IOException {
        int tl = m.getInt(JournalLayout.TAIL_LENGTH_OFFSET);
        if (pos < RecordDescriptor.FILE_HEADER_LENGTH || len < 0 || tl < 0 || tl > JournalLayout.TAIL_MAX || pos < tl) {
            return "its pending record is damaged (offset " + pos + ", " + len + " bytes)";
        }
        if (dataEnd < pos) {
            return "the file's data ends at byte " + dataEnd + ", before the " + pos + " the journal's last write started at";
        }
        byte[] want = new byte[tl];
        m.get(JournalLayout.TAIL_OFFSET, want);
        byte[] have = readTail(ch, pos, tl);
        if (!Arrays.equals(want, have)) {
            return "the file's bytes before offset " + pos + " are not those the journal's writer wrote there";
        }
        return null;
    }

    private static byte[] readTail(FileChannel ch, long end) throws IOException {
        return readTail(ch, end, (int) Math.min(JournalLayout.TAIL_MAX, end));
    }

    private static byte[] readTail(FileChannel ch, long end, int n) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(n);
        Frame.readFully(ch, b, end - n, n);
        return b.array();
    }

    /** Whole frames found in a journal: how many, and the runs of adjacent ones (one write each). */
    private record Found(long frames, List<ByteBuffer> runs) {
    }

    /**
     * The whole frames of every region use still marked (except {@code skip}), oldest use first,
     * as runs of adjacent frames. A run of zeros is crossed in 8-byte steps: no frame can start
     * where its length's 4 bytes would all be zero.
     */
    private static Found frames(ByteBuffer m, long skip) {
        int regions = m.getInt(JournalLayout.REGION_COUNT_OFFSET);
        int regionBytes = m.getInt(JournalLayout.REGION_BYTES_OFFSET);
        int header = JournalLayout.headerBytes(regions);
        List<long[]> uses = new ArrayList<>();
        for (int i = 0; i < regions; i++) {
            long use = m.getLong(JournalLayout.USE_TABLE_OFFSET + 8 * i);
            if (use > 0 && use != skip) {
                uses.add(new long[] {use, i});
            }
        }
        uses.sort(Comparator.comparingLong(u -> u[0]));
        List<ByteBuffer> runs = new ArrayList<>();
        long frames = 0;
        CRC32C crc = new CRC32C();
        for (long[] u : uses) {
            ByteBuffer r = m.slice(header + (int) u[1] * regionBytes, regionBytes).order(ByteOrder.LITTLE_ENDIAN);
            int at = 0;
            int runStart = -1;
            while (at + RecordDescriptor.HEADER_LENGTH <= regionBytes) {
                if (r.get(at) == 0) {
                    int n = at;
                    while (n + 8 <= regionBytes && r.getLong(n) == 0) {
                        n += 8;
                    }
                    while (n < regionBytes && r.get(n) == 0) {
                        n++;
                    }
                    if (n - at >= 4) {
                        runStart = endRun(runs, r, runStart, at);
                        at = Math.max(at + 1, n - 3);
                        continue;
                    }
                }
                if (RecordDescriptor.plausibleHeader(r, at, regionBytes - at)) {
                    int length = r.getInt(at + RecordDescriptor.LENGTH_OFFSET);
                    int c = RecordDescriptor.crc(crc, r, at, r, at + RecordDescriptor.HEADER_LENGTH,
                            length - RecordDescriptor.HEADER_LENGTH);
                    if (c == r.getInt(at + RecordDescriptor.CRC_OFFSET)) {
                        if (runStart < 0) {
                            runStart = at;
                        }
                        frames++;
                        at += length;
                        continue;
                    }
                }
                runStart = endRun(runs, r, runStart, at);
                at++;                            // a torn frame or space not yet copied: step over it
            }
            endRun(runs, r, runStart, at);
        }
        return new Found(frames, runs);
    }

    /** Adds the run {@code [start, end)} of whole frames, if any; returns -1 (no run open). */
    private static int endRun(List<ByteBuffer> runs, ByteBuffer r, int start, int end) {
        if (start >= 0 && end > start) {
            runs.add(r.slice(start, end - start));
        }
        return -1;
    }

    private static Result orphan(Path jp, String why) {
        Path to = jp.resolveSibling(jp.getFileName() + ".orphan-" + System.currentTimeMillis());
        try {
            Files.move(jp, to, StandardCopyOption.ATOMIC_MOVE);
            return new Result(0, 0, "journal " + jp + " not replayed: " + why + " (the file was moved, replaced or"
                    + " deleted since?); kept as " + to, true);
        } catch (IOException | RuntimeException e) {
            return new Result(0, 0, "journal " + jp + " not replayed: " + why + "; it could not be renamed (" + e
                    + "), so this open writes no journal", false);
        }
    }
}
