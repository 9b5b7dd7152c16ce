package dev.spool.agent.reliability;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the files {@link LogbackJournalKillHost} wrote into events and checks each one is whole: its
 * first line the full pattern ({@link #HEADER}), its level, MDC value and stack trace the ones the host
 * gave that seq, its stack trace line for line the same as the first one seen of its thread (the
 * three messages aside), the file ending with a newline, every byte valid UTF-8. What is wrong goes to
 * {@link #problems} naming the file, the line and its text.
 */
final class LogbackKillEvents {
    static final Pattern HEADER = Pattern.compile(
            "\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3} (INFO|WARN) kill\\.logback \\[(q\\d+)?\\]: r(\\d+) t([01]) (\\d+) ü");

    /** One logged event: where it starts (file, 1-based line, byte offset) and its id. */
    record Event(Path file, int line, long offset, int round, int thread, long seq) {
        String where() {
            return file.getFileName() + " line " + line;
        }
    }

    final List<String> problems = new ArrayList<>();
    private final Map<Integer, List<String>> referenceTrace = new HashMap<>();
    private final Map<Integer, String> referenceWhere = new HashMap<>();

    /** The events of {@code file} in file order; what is not whole goes to {@link #problems}. */
    List<Event> read(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        List<Event> events = new ArrayList<>();
        String name = file.getFileName().toString();
        Event open = null;
        List<String> trace = new ArrayList<>();
        int lineNo = 0;
        int start = 0;
        while (start < bytes.length) {
            int end = start;
            while (end < bytes.length && bytes[end] != '\n') {
                end++;
            }
            lineNo++;
            String line;
            try {
                line = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes, start, end - start)).toString();
            } catch (CharacterCodingException e) {
                problems.add(name + " line " + lineNo + " (byte " + start + ") not valid UTF-8: '"
                        + new String(bytes, start, end - start, StandardCharsets.UTF_8) + "'");
                line = "\uFFFD";
            }
            if (end == bytes.length) {
                problems.add(name + " ends without a newline (a torn last line " + lineNo + " at byte " + start + "): '" + line + "'");
            }
            Matcher m = HEADER.matcher(line);
            if (m.matches()) {
                finish(open, trace);
                trace.clear();
                open = new Event(file, lineNo, start, Integer.parseInt(m.group(3)), Integer.parseInt(m.group(4)),
                        Long.parseLong(m.group(5)));
                events.add(open);
                String level = open.seq() % LogbackJournalKillHost.EXCEPTION_EVERY == 0 ? "WARN" : "INFO";
                String mdc = open.seq() % LogbackJournalKillHost.MDC_EVERY == 0 ? "q" + open.seq() : null;
                if (!m.group(1).equals(level) || !java.util.Objects.equals(m.group(2), mdc)) {
                    problems.add(open.where() + ": level " + m.group(1) + " MDC " + m.group(2) + ", expected " + level + " " + mdc
                            + ": '" + line + "'");
                }
            } else if (open == null || !(line.startsWith("\t") || line.startsWith("java.lang.IllegalStateException: ")
                    || line.startsWith("Caused by: "))) {
                problems.add(name + " line " + lineNo + " not whole: '" + line + "'");
            } else {
                trace.add(line);
            }
            start = end + 1;
        }
        finish(open, trace);
        return events;
    }

    /** Checks the stack trace lines that followed {@code e} (none unless its seq has an exception). */
    private void finish(Event e, List<String> trace) {
        if (e == null) {
            return;
        }
        if (e.seq() % LogbackJournalKillHost.EXCEPTION_EVERY != 0) {
            if (!trace.isEmpty()) {
                problems.add(e.where() + " (r" + e.round() + " t" + e.thread() + " " + e.seq() + "): stack trace lines after an event"
                        + " without an exception: '" + trace.get(0) + "'");
            }
            return;
        }
        String outer = "java.lang.IllegalStateException: outer r" + e.round() + " t" + e.thread() + " " + e.seq();
        String middle = "Caused by: java.io.IOException: middle " + e.seq();
        String root = "Caused by: java.lang.IllegalArgumentException: root " + e.seq();
        List<String> normal = new ArrayList<>();
        for (String l : trace) {
            normal.add(l.equals(outer) ? "<outer>" : l.equals(middle) ? "<middle>" : l.equals(root) ? "<root>" : l);
        }
        if (normal.isEmpty() || !normal.get(0).equals("<outer>") || normal.stream().filter("<middle>"::equals).count() != 1
                || normal.stream().filter("<root>"::equals).count() != 1 || normal.indexOf("<middle>") > normal.indexOf("<root>")) {
            problems.add(e.where() + " (r" + e.round() + " t" + e.thread() + " " + e.seq() + "): stack trace not whole: " + trace);
            return;
        }
        List<String> reference = referenceTrace.putIfAbsent(e.thread(), normal);
        if (reference == null) {
            referenceWhere.put(e.thread(), e.file().getFileName() + " line " + e.line());
            return;
        }
        for (int i = 0; i < Math.max(reference.size(), normal.size()); i++) {
            String want = i < reference.size() ? reference.get(i) : "(end)";
            String got = i < normal.size() ? normal.get(i) : "(end)";
            if (!want.equals(got)) {
                problems.add(e.where() + " (r" + e.round() + " t" + e.thread() + " " + e.seq() + "): stack trace line " + (i + 1)
                        + " is '" + got + "', the first trace of thread " + e.thread() + " (" + referenceWhere.get(e.thread())
                        + ") has '" + want + "'");
                return;
            }
        }
    }
}
