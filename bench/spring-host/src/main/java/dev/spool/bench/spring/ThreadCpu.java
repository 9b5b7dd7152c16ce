package dev.spool.bench.spring;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Another process's CPU time per thread group, from Linux's {@code /proc/PID/task/TID/stat}
 * (utime + stime, in clock ticks of 10 ms) and {@code comm} (the thread's name, cut to 15
 * characters; digits folded to {@code #} so Tomcat's {@code http-nio-auto-1-exec-12} and its
 * siblings form one group). Threads that ended between two reads are missing from the later one.
 */
final class ThreadCpu {

    private static final long MS_PER_TICK = 10;
    private final Map<String, Long> msByGroup;

    private ThreadCpu(Map<String, Long> msByGroup) {
        this.msByGroup = msByGroup;
    }

    static ThreadCpu read(long pid) throws IOException {
        Map<String, Long> groups = new TreeMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String name = Files.readString(task.resolve("comm")).strip().replaceAll("[0-9]+", "#");
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
                    groups.merge(name, ticks * MS_PER_TICK, Long::sum);
                } catch (IOException | RuntimeException gone) {
                    // the thread ended while we read it
                }
            }
        }
        return new ThreadCpu(groups);
    }

    long totalMs() {
        return msByGroup.values().stream().mapToLong(Long::longValue).sum();
    }

    /** The groups that used CPU between {@code earlier} and this read, most first. */
    String minus(ThreadCpu earlier) {
        Map<String, Long> delta = new TreeMap<>();
        msByGroup.forEach((k, v) -> delta.put(k, v - earlier.msByGroup.getOrDefault(k, 0L)));
        return delta.entrySet().stream().filter(e -> e.getValue() > 0)
                .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
                .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" "));
    }
}
