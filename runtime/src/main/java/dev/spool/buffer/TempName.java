package dev.spool.buffer;

/**
 * The name of one of Spool's own temp files ({@link AtomicFiles}), parsed. Two formats:
 * <ul>
 *   <li>current: {@code .<name>.spool-tmp-<pid>-<start>-<ns>-<16 hex>}: the writing process's pid,
 *       its start time in clock ticks since boot ({@code /proc/<pid>/stat} field 22; 0 when not
 *       known), a tag of its pid namespace and host ({@link TempOwner#tag}: 8 hex digits;
 *       {@code 00000000} when not known), then 64 random bits;</li>
 *   <li>legacy (Spool before issue 36): {@code .<name>.spool-tmp-<16 hex>}: no owner.</li>
 * </ul>
 * Only names that match one of these exactly, with a non-empty {@code <name>}, parse; anything
 * else (a user's {@code .x.spool-tmp-notes}, upper-case hex, a missing field) is not Spool's.
 * Immutable.
 *
 * @param target the data file's name the temp was written for
 * @param pid    the owner's pid, or -1 for a legacy name
 * @param start  the owner's start time in clock ticks since boot (0: not known; -1: legacy)
 * @param tag    the owner's namespace tag (-1: legacy)
 */
record TempName(String target, long pid, long start, long tag) {
    static final int RANDOM_HEX = 16;
    private static final int TAG_HEX = 8;

    /** Whether this is a legacy name, which says nothing of its owner. */
    boolean legacy() {
        return pid < 0;
    }

    /** What follows the target's name in every temp name {@code owner} writes, before the random part. */
    static String mark(TempOwner owner) {
        return AtomicFiles.TEMP_MARK + owner.pid() + "-" + owner.start() + "-" + hex(owner.tag(), TAG_HEX) + "-";
    }

    /** The file name parsed, or null when it is not one of Spool's temp names. */
    static TempName parse(String name) {
        int mark = name.lastIndexOf(AtomicFiles.TEMP_MARK);
        if (mark < 2 || name.charAt(0) != '.') return null;
        String target = name.substring(1, mark);
        String tail = name.substring(mark + AtomicFiles.TEMP_MARK.length());
        if (tail.length() == RANDOM_HEX) return isHex(tail) ? new TempName(target, -1, -1, -1) : null;
        String[] f = tail.split("-", -1);
        if (f.length != 4 || f[2].length() != TAG_HEX || f[3].length() != RANDOM_HEX
                || !isHex(f[2]) || !isHex(f[3])) return null;
        long pid = decimal(f[0], 10);
        long start = decimal(f[1], 19);
        if (pid <= 0 || start < 0) return null;
        return new TempName(target, pid, start, Long.parseLong(f[2], 16));
    }

    /** {@code s} as a non-negative decimal of 1 to {@code maxDigits} digits, or -1. */
    private static long decimal(String s, int maxDigits) {
        if (s.isEmpty() || s.length() > maxDigits) return -1;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') return -1;
        }
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException tooLarge) {
            return -1;
        }
    }

    private static boolean isHex(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) return false;
        }
        return true;
    }

    static String hex(long value, int digits) {
        String h = Long.toHexString(value);
        return h.length() >= digits ? h : "0".repeat(digits - h.length()) + h;
    }
}
