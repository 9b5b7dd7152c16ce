package dev.spool.collections;

import dev.spool.buffer.JsonKind;
import dev.spool.buffer.LiveChange;
import dev.spool.buffer.LiveSlot;
import dev.spool.buffer.RealPaths;
import dev.spool.buffer.SharedBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * What a collection object is bound to: a file (its real path), the kind of the file's top level,
 * and the key path of the viewed value inside the file's tree. Every operation is one call into
 * the buffer, under the file entry's monitor. Immutable.
 */
final class Node {
    final SharedBuffer buffer;
    final Path file;
    final Path real;
    final JsonKind rootKind;
    final KeyPath path;
    /** The file's way into the buffer (shared by the root and every nested view of one opened file). */
    private final LiveSlot slot;
    /** {@code path.isRoot()}, kept: every call asks. */
    private final boolean atRoot;
    private final String fileName;

    private Node(SharedBuffer buffer, Path file, Path real, LiveSlot slot, JsonKind rootKind, KeyPath path) {
        this.buffer = buffer;
        this.file = file;
        this.real = real;
        this.slot = slot;
        this.rootKind = rootKind;
        this.path = path;
        this.atRoot = path.isRoot();
        this.fileName = real.toString();
    }

    static Node root(Path file, SharedBuffer buffer, JsonKind kind) {
        if (file == null) throw new NullPointerException("file");
        if (buffer == null) throw new NullPointerException("buffer");
        Path real = RealPaths.of(file);
        return new Node(buffer, file, real, buffer.liveSlot(real), kind, KeyPath.ROOT);
    }

    Node child(KeyPath childPath) {
        return new Node(buffer, file, real, slot, rootKind, childPath);
    }

    /** Runs {@code fn} on the viewed value under the file entry's monitor. */
    <T> T read(Function<Object, T> fn) {
        if (atRoot) return buffer.liveRead(slot, rootKind, fn);
        return buffer.liveRead(slot, rootKind, root -> fn.apply(path.resolve(root, fileName)));
    }

    /** Runs {@code fn(viewed value, arg)} under the file entry's monitor; no allocation at the root. */
    <A, T> T read(A arg, BiFunction<Object, A, T> fn) {
        if (atRoot) return buffer.liveRead(slot, rootKind, arg, fn);
        return buffer.liveRead(slot, rootKind, arg, (root, a) -> fn.apply(path.resolve(root, fileName), a));
    }

    /** Runs the change {@code fn} on the viewed value; the file becomes dirty (or is written through). */
    <T> T write(LiveChange<T> fn) {
        if (atRoot) return buffer.liveWrite(slot, rootKind, fn);
        return buffer.liveWrite(slot, rootKind, (root, growth) -> fn.apply(path.resolve(root, fileName), growth));
    }

    /** Encoded size of one map member. */
    static long member(String key, Object value) {
        return key.length() + 4L + JsonValues.estimate(value);
    }

    /**
     * Whether a tree value is a scalar (null, string, number, boolean), asked with class checks
     * only: a failed {@code instanceof} against an interface ({@code Map}, {@code List}) scans the
     * value class's interfaces on every call, the most expensive step of a buffered get of a
     * number or a string (issue 35).
     */
    static boolean scalar(Object v) {
        return v == null || v instanceof String || v instanceof Number || v instanceof Boolean;
    }

    /** A value read from the tree as handed out: nested containers become live views. */
    Object wrap(Object v, KeyPath at) {
        if (scalar(v)) return v;
        if (v instanceof Map) return new SyncedMap(child(at));
        if (v instanceof List) return new SyncedList(child(at));
        return v;
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> asMap(Object v) {
        if (v instanceof Map) return (Map<String, Object>) v;
        throw new IllegalStateException("the value at key path " + path + " in " + fileName + " is no longer an object");
    }

    @SuppressWarnings("unchecked")
    List<Object> asList(Object v) {
        if (v instanceof List) return (List<Object>) v;
        throw new IllegalStateException("the value at key path " + path + " in " + fileName + " is no longer an array");
    }

    /** A value to compare against tree contents; null if it could never be in a JSON tree. */
    static Object plain(Object v, Object unmatchable) {
        try {
            return JsonValues.toJson(v, KeyPath.ROOT);
        } catch (IllegalArgumentException e) {
            return unmatchable;
        }
    }
}
