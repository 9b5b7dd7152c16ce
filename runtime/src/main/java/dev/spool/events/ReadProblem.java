package dev.spool.events;

/** One place where an event file is not sound, as found by {@link EventReader}. */
public final class ReadProblem {
    /** What is wrong at {@link #offset()}. */
    public enum Kind {
        /** The file header is missing, truncated or not Spool's. */
        BAD_FILE_HEADER,
        /** A frame runs past the end of the file (a torn write). */
        TRUNCATED,
        /** A frame's header is implausible or its CRC32C does not match. */
        CORRUPT,
        /** A split record with a missing or out-of-order part; its parts are not merged. */
        INCOMPLETE,
        /** A frame with a valid CRC whose payload is not a valid encoding. */
        UNDECODABLE
    }

    private final long offset;
    private final Kind kind;
    private final String detail;
    private final long goodBefore;

    ReadProblem(long offset, Kind kind, String detail, long goodBefore) {
        this.offset = offset;
        this.kind = kind;
        this.detail = detail;
        this.goodBefore = goodBefore;
    }

    /** @return the byte offset of the bad frame (or of the first part of an incomplete record) */
    public long offset() { return offset; }

    /** @return what is wrong */
    public Kind kind() { return kind; }

    /** @return a description of the problem for people */
    public String detail() { return detail; }

    /** @return the good records returned before this problem was found */
    public long goodBefore() { return goodBefore; }

    @Override
    public String toString() {
        return kind + " at offset " + offset + " (" + goodBefore + " good records before): " + detail;
    }
}
