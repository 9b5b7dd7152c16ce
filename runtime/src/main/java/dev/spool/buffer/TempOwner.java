package dev.spool.buffer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32;

/**
 * Who writes a temp file, and whether the writer of another one is still alive: the proof
 * {@link StaleTemps} needs before it removes anything.
 *
 * <p><b>Identity.</b> A process is its pid plus its start time in clock ticks since boot, read
 * from {@code /proc/<pid>/stat} (field 22). That value comes from the kernel's monotonic clock,
 * so unlike {@code ProcessHandle.Info.startInstant()} (boot time from {@code /proc/stat}, which
 * moves when the wall clock is stepped) every process reads the same number for the same
 * process; pids are compared with it exactly. The {@link #tag} names the pid namespace and host
 * ({@code readlink /proc/self/ns/pid} and {@code /proc/sys/kernel/hostname}, CRC32): a pid is
 * only meaningful in the namespace that gave it (another container or another machine writing a
 * shared folder has its own pid 1234).
 *
 * <p><b>Guarantees.</b> {@link #ownerGone} says true only when the owner named is provably not
 * running: same tag as ours, and no process with that pid runs, or one runs with another start
 * time (the pid was reused). Anything unknown (no {@code /proc}, another namespace, a process whose
 * start time cannot be read) says false. Immutable; thread-safe.
 * <pre>{@code
 * TempOwner me = TempOwner.self();
 * TempName n = TempName.parse(".a.json.spool-tmp-4242-9000-1a2b3c4d-0123456789abcdef");
 * if (me.ownerGone(n)) ...   // the writer of n is dead: its temp file will never be renamed
 * }</pre>
 *
 * @param pid   this process's pid
 * @param start this process's start in clock ticks since boot, 0 when not known
 * @param tag   this process's namespace tag, 0 when not known (then no owner is ever judged gone)
 */
record TempOwner(long pid, long start, long tag) {
    private static final Path PROC = Path.of("/proc");
    private static final TempOwner SELF = read();

    /** This process. */
    static TempOwner self() {
        return SELF;
    }

    /** Whether the temp file named {@code n} belongs to this very process. */
    boolean owns(TempName n) {
        return n.pid() == pid && n.start() == start && n.tag() == tag;
    }

    /** Whether this process can tell if {@code n}'s owner runs: a current name from this pid namespace and host, starts known. */
    boolean judges(TempName n) {
        return !n.legacy() && tag != 0 && n.tag() == tag && start != 0 && n.start() != 0;
    }

    /**
     * Whether the process that wrote {@code n} (a current-format name) is provably gone. False for a
     * legacy name, another namespace, an unknown tag or start on either side, a live owner, and
     * a process whose start time cannot be read.
     */
    boolean ownerGone(TempName n) {
        if (!judges(n) || owns(n)) return false;
        long now = startTicks(n.pid());
        if (now == NO_PROCESS) return true;
        return now > 0 && now != n.start(); // the pid now belongs to a process started at another time
    }

    /** {@link #startTicks}: no process with that pid. */
    static final long NO_PROCESS = -1;

    /**
     * The start time in ticks since boot of process {@code pid}; {@link #NO_PROCESS} when
     * {@code /proc} is there and has no such process, 0 when it cannot be told.
     */
    static long startTicks(long pid) {
        Path stat = PROC.resolve(Long.toString(pid)).resolve("stat");
        try {
            return fieldStart(Files.readString(stat, StandardCharsets.ISO_8859_1));
        } catch (java.nio.file.NoSuchFileException gone) {
            return Files.isDirectory(PROC.resolve("self")) ? NO_PROCESS : 0;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** Field 22 of a {@code /proc/<pid>/stat} line (the command in field 2 may hold spaces and parentheses). */
    static long fieldStart(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0) return 0;
        String[] f = stat.substring(close + 1).trim().split(" ");
        // f[0] is field 3 (state): field 22 is f[19]
        if (f.length < 20) return 0;
        try {
            long v = Long.parseLong(f[19]);
            return v > 0 ? v : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static TempOwner read() {
        long pid = ProcessHandle.current().pid();
        long start = startTicks(pid);
        return new TempOwner(pid, Math.max(0, start), start > 0 ? readTag() : 0);
    }

    private static long readTag() {
        try {
            String ns = Files.readSymbolicLink(PROC.resolve("self").resolve("ns").resolve("pid")).toString();
            String host = Files.readString(PROC.resolve("sys/kernel/hostname"), StandardCharsets.UTF_8).trim();
            CRC32 crc = new CRC32();
            crc.update((ns + "\n" + host).getBytes(StandardCharsets.UTF_8));
            long t = crc.getValue();
            return t != 0 ? t : 1;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
