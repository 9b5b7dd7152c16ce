package dev.spool.collections;

import dev.spool.buffer.JsonKind;
import dev.spool.buffer.SharedBuffer;
import java.nio.file.Path;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.function.BiFunction;

/**
 * A {@code List<Object>} backed by a JSON file (an array at its top level), or a live view of an
 * array nested inside such a file. Modes, values and thread safety as {@link SyncedMap}: each call
 * is atomic with respect to every other call on the same file ({@link #add(Object)} appends
 * atomically, so concurrent appenders never lose an element); {@link #iterator()} iterates a
 * read-only snapshot; nested maps and lists are live views addressed by index, so they follow the
 * index, not the element, when earlier elements are inserted or removed.
 *
 * <pre>{@code
 * List<Object> log = SyncedList.open(Path.of("steps.json"));
 * try (var scope = Spool.buffered()) {
 *     for (int i = 0; i < 100; i++) log.add(Map.of("step", i));   // memory only
 * }                                                                // one write
 * }</pre>
 */
public final class SyncedList extends AbstractList<Object> implements RandomAccess {
    private final Node node;

    SyncedList(Node node) {
        this.node = node;
    }

    /**
     * The list in {@code file} (empty if missing), using the global buffer. The file is read now.
     * @param file the JSON file
     * @return a live view of the file's top-level list
     * @throws dev.spool.buffer.CorruptFileException if the file is not valid JSON (file, line, column)
     * @throws IllegalStateException if its top level is not an array
     */
    public static SyncedList open(Path file) {
        return open(file, SharedBuffer.global());
    }

    /**
     * The list in {@code file} (empty if missing), using {@code buffer}. The file is read now.
     * @param file the JSON file
     * @param buffer the buffer that holds the file's content inside buffered scopes
     * @return a live view of the file's top-level list
     * @throws dev.spool.buffer.CorruptFileException if the file is not valid JSON (file, line, column)
     * @throws IllegalStateException if its top level is not an array
     */
    public static SyncedList open(Path file, SharedBuffer buffer) {
        SyncedList l = new SyncedList(Node.root(file, buffer, JsonKind.LIST));
        l.size();
        return l;
    }

    /**
     * The file this list (or the list it is nested in) is stored in.
     * @return the path as given to {@code open}
     */
    public Path file() {
        return node.file;
    }

    @Override
    public int size() {
        return node.read(v -> node.asList(v).size());
    }

    /** Element at an index of an array; fails if the viewed value is no longer one. */
    private static final BiFunction<Object, Integer, Object> GET = (v, index) -> {
        if (!(v instanceof List<?> l)) throw new IllegalStateException("the viewed value is no longer an array");
        return l.get(index);
    };

    @Override
    public Object get(int index) {
        Object x = node.read(index, GET);
        // wrapping builds a view (a path), it touches no tree data: safe outside the monitor
        if (Node.scalar(x)) return x;
        return x instanceof Map || x instanceof List ? node.wrap(x, node.path.index(index)) : x;
    }

    @Override
    public Object set(int index, Object element) {
        Object json = JsonValues.toJson(element, node.path.index(index));
        return node.write((v, growth) -> {
            Object old = node.asList(v).set(index, json);
            growth.grew(JsonValues.estimate(json) - JsonValues.estimate(old));
            return old;
        });
    }

    /** Appends atomically. */
    @Override
    public boolean add(Object element) {
        Object json = JsonValues.toJson(element, node.path.index(0));
        return node.write((v, growth) -> {
            growth.grew(JsonValues.estimate(json) + 1);
            return node.asList(v).add(json);
        });
    }

    @Override
    public void add(int index, Object element) {
        Object json = JsonValues.toJson(element, node.path.index(index));
        node.write((v, growth) -> {
            node.asList(v).add(index, json);
            growth.grew(JsonValues.estimate(json) + 1);
            return null;
        });
    }

    @Override
    public Object remove(int index) {
        return node.write((v, growth) -> {
            Object old = node.asList(v).remove(index);
            growth.grew(-1 - JsonValues.estimate(old));
            return old;
        });
    }

    @Override
    public boolean remove(Object o) {
        Object plain = Node.plain(o, new Object());
        if (!node.read(v -> node.asList(v).contains(plain))) return false;
        return node.write((v, growth) -> {
            boolean removed = node.asList(v).remove(plain);
            if (removed) growth.grew(-1 - JsonValues.estimate(plain));
            return removed;
        });
    }

    @Override
    public boolean addAll(Collection<?> c) {
        return addAll(-1, c);
    }

    @Override
    public boolean addAll(int index, Collection<?> c) {
        List<Object> converted = new ArrayList<>(c.size());
        long bytes = 0;

        for (Object x : c) {
            Object json = JsonValues.toJson(x, node.path.index(Math.max(index, 0) + converted.size()));
            converted.add(json);
            bytes += JsonValues.estimate(json) + 1;
        }
        if (converted.isEmpty()) return false;
        long added = bytes;
        return node.write((v, growth) -> {
            growth.grew(added);
            return index < 0 ? node.asList(v).addAll(converted) : node.asList(v).addAll(index, converted);
        });
    }

    @Override
    public void clear() {
        node.write((v, growth) -> {
            List<Object> l = node.asList(v);
            growth.grew(2 - JsonValues.estimate(l));
            l.clear();
            return null;
        });
    }

    @Override
    public boolean contains(Object o) {
        return indexOf(o) >= 0;
    }

    @Override
    public int indexOf(Object o) {
        Object plain = Node.plain(o, new Object());
        return node.read(v -> node.asList(v).indexOf(plain));
    }

    @Override
    public int lastIndexOf(Object o) {
        Object plain = Node.plain(o, new Object());
        return node.read(v -> node.asList(v).lastIndexOf(plain));
    }

    /** Iterates a read-only snapshot taken now; nested containers are live views. */
    @Override
    public Iterator<Object> iterator() {
        return node.read(v -> {
            List<Object> l = node.asList(v);
            List<Object> out = new ArrayList<>(l.size());
            for (int i = 0; i < l.size(); i++) out.add(node.wrap(l.get(i), node.path.index(i)));
            return Collections.unmodifiableList(out);
        }).iterator();
    }

    /**
     * A deep copy of this list's current content.
     * @return plain JSON types (maps, lists, strings, numbers, booleans, null), detached from the file
     */
    public List<Object> copy() {
        @SuppressWarnings("unchecked")
        List<Object> l = (List<Object>) copyTree();
        return l;
    }

    Object copyTree() {
        return node.read(v -> JsonValues.deepCopy(node.asList(v)));
    }
}
