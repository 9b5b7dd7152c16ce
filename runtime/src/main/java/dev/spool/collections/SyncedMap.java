package dev.spool.collections;

import dev.spool.buffer.JsonKind;
import dev.spool.buffer.SharedBuffer;
import java.nio.file.Path;
import java.util.AbstractMap;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * A {@code Map<String,Object>} backed by a JSON file (an object at its top level), or a live view
 * of an object nested inside such a file.
 *
 * <p><b>Modes.</b> Write-through by default: every call reads the file's current content and every
 * change is written back with an atomic replace before it returns. Inside
 * {@code Spool.buffered()} every instance bound to the same real path shares one live object in
 * memory: reads are memory lookups and changes do no I/O until the buffer flushes.
 *
 * <p><b>Thread safety.</b> Safe for any number of threads and instances on the same or different
 * files: each call is atomic with respect to every other call on the same file (it runs under that
 * file's buffer entry monitor). Compound defaults of {@link Map} ({@code compute}, {@code merge},
 * ...) are sequences of such calls, not atomic; {@link #putIfAbsent} is atomic.
 * {@link #entrySet()}, {@link #keySet()} and {@link #values()} are read-only snapshots; nested
 * maps and lists in them (and from {@link #get}) are live views that write through the root's
 * file and are addressed by key path: if the value at that path is removed, the view fails with
 * {@link IllegalStateException}.
 *
 * <p><b>Values.</b> JSON types, primitive arrays, records and POJOs (converted with Jackson);
 * values are copied in. Non-string keys, NaN/infinite numbers and unconvertible values are refused
 * with {@link IllegalArgumentException} naming the key path; nothing is changed or written.
 *
 * <pre>{@code
 * Map<String, Object> job = SyncedMap.open(Path.of("jobs/7/doc.json"));
 * job.put("status", "running");                    // written now (write-through)
 * try (var scope = Spool.buffered()) {
 *     Map<String, Object> stats = (Map<String, Object>) job.computeIfAbsent("stats", k -> Map.of());
 *     stats.put("steps", 1000);                     // memory only; written at the scope's close
 * }
 * }</pre>
 */
public final class SyncedMap extends AbstractMap<String, Object> {
    private final Node node;

    SyncedMap(Node node) {
        this.node = node;
    }

    /**
     * The map in {@code file} (empty if missing), using the global buffer. The file is read now.
     * @param file the JSON file
     * @return a live view of the file's top-level map
     * @throws dev.spool.buffer.CorruptFileException if the file is not valid JSON (file, line, column)
     * @throws IllegalStateException if its top level is not an object
     */
    public static SyncedMap open(Path file) {
        return open(file, SharedBuffer.global());
    }

    /**
     * The map in {@code file} (empty if missing), using {@code buffer}. The file is read now.
     * @param file the JSON file
     * @param buffer the buffer that holds the file's content inside buffered scopes
     * @return a live view of the file's top-level map
     * @throws dev.spool.buffer.CorruptFileException if the file is not valid JSON (file, line, column)
     * @throws IllegalStateException if its top level is not an object
     */
    public static SyncedMap open(Path file, SharedBuffer buffer) {
        SyncedMap m = new SyncedMap(Node.root(file, buffer, JsonKind.MAP));
        m.size();
        return m;
    }

    /**
     * The file this map (or the map it is nested in) is stored in.
     * @return the path as given to {@code open}
     */
    public Path file() {
        return node.file;
    }

    @Override
    public int size() {
        return node.read(v -> node.asMap(v).size());
    }

    @Override
    public boolean isEmpty() {
        return size() == 0;
    }

    @Override
    public boolean containsKey(Object key) {
        return node.read(v -> node.asMap(v).containsKey(key));
    }

    @Override
    public boolean containsValue(Object value) {
        Object plain = Node.plain(value, new Object());
        return node.read(v -> node.asMap(v).containsValue(plain));
    }

    /** Looks up a key in an object; fails if the viewed value is no longer one. */
    private static final BiFunction<Object, Object, Object> GET = (v, key) -> {
        if (!(v instanceof Map<?, ?> m)) throw new IllegalStateException("the viewed value is no longer an object");
        return m.get(key);
    };

    @Override
    public Object get(Object key) {
        Object x = node.read(key, GET);
        // wrapping builds a view (a path), it touches no tree data: safe outside the monitor
        if (Node.scalar(x)) return x;
        return x instanceof Map || x instanceof List ? node.wrap(x, node.path.key((String) key)) : x;
    }

    @Override
    public Object put(String key, Object value) {
        Object json = convertFor(key, value);
        return node.write((v, growth) -> {
            Object old = node.asMap(v).put(key, json);
            growth.grew(old == null ? Node.member(key, json) : JsonValues.estimate(json) - JsonValues.estimate(old));
            return old;
        });
    }

    /** Atomic: puts only if {@code key} is absent (or mapped to null). */
    @Override
    public Object putIfAbsent(String key, Object value) {
        Object json = convertFor(key, value);
        Object existing = get(key);
        if (existing != null) return existing;
        Object[] prior = new Object[1];
        node.write((v, growth) -> {
            Map<String, Object> m = node.asMap(v);
            Object cur = m.get(key);
            if (cur == null) {
                m.put(key, json);
                growth.grew(Node.member(key, json));
            }
            prior[0] = cur == null ? null : node.wrap(cur, node.path.key(key));
            return null;
        });
        return prior[0];
    }

    @Override
    public Object remove(Object key) {
        if (!containsKey(key)) return null;
        return node.write((v, growth) -> {
            Object old = node.asMap(v).remove(key);
            if (old != null) growth.grew(-Node.member((String) key, old));
            return old;
        });
    }

    @Override
    public void putAll(Map<? extends String, ?> m) {
        Map<String, Object> converted = new LinkedHashMap<>();
        for (Map.Entry<? extends String, ?> e : m.entrySet()) {
            Object k = e.getKey();
            if (!(k instanceof String key)) throw JsonValues.nonStringKey(k, node.path);
            Object json = JsonValues.toJson(e.getValue(), node.path.key(key));
            converted.put(key, json);
        }
        if (converted.isEmpty()) return;
        node.write((v, growth) -> {
            Map<String, Object> target = node.asMap(v);
            for (Map.Entry<String, Object> e : converted.entrySet()) {
                Object old = target.put(e.getKey(), e.getValue());
                growth.grew(Node.member(e.getKey(), e.getValue()) - (old == null ? 0 : Node.member(e.getKey(), old)));
            }
            return null;
        });
    }

    @Override
    public void clear() {
        node.write((v, growth) -> {
            Map<String, Object> m = node.asMap(v);
            growth.grew(2 - JsonValues.estimate(m));
            m.clear();
            return null;
        });
    }

    /** A read-only snapshot of the entries; nested containers are live views. */
    @Override
    public Set<Map.Entry<String, Object>> entrySet() {
        return node.read(v -> {
            Set<Map.Entry<String, Object>> out = new LinkedHashSet<>();
            for (Map.Entry<String, Object> e : node.asMap(v).entrySet()) {
                out.add(new SimpleImmutableEntry<>(e.getKey(), node.wrap(e.getValue(), node.path.key(e.getKey()))));
            }
            return Collections.unmodifiableSet(out);
        });
    }

    /**
     * A deep copy of this map's current content.
     * @return plain JSON types (maps, lists, strings, numbers, booleans, null), detached from the file
     */
    public Map<String, Object> copy() {
        @SuppressWarnings("unchecked")
        Map<String, Object> m = (Map<String, Object>) copyTree();
        return m;
    }

    Object copyTree() {
        return node.read(v -> JsonValues.deepCopy(node.asMap(v)));
    }

    private Object convertFor(Object key, Object value) {
        if (!(key instanceof String k)) throw JsonValues.nonStringKey(key, node.path);
        return JsonValues.toJson(value, node.path.key(k));
    }
}
