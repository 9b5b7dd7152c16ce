package dev.spool.bench.buffer;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.spool.buffer.BufferScope;
import dev.spool.buffer.BufferSettings;
import dev.spool.buffer.SharedBuffer;
import dev.spool.collections.SyncedMap;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/** The ways of keeping {@code files} JSON maps that the benchmarks compare. */
final class Stores {
    private Stores() {}

    interface Store extends AutoCloseable {
        void set(int file, String key, Object value);

        Object get(int file, String key);

        @Override
        void close() throws IOException;
    }

    static final ObjectMapper JSON = new ObjectMapper();

    static Store create(String impl, Path dir, int files, int perFile) throws IOException {
        for (int f = 0; f < files; f++) {
            Map<String, Object> m = new LinkedHashMap<>();
            for (int k = 0; k < perFile; k++) m.put(key(k), k);
            JSON.writeValue(dir.resolve(f + ".json").toFile(), m);
        }
        return switch (impl) {
            case "writeThrough" -> new Synced(dir, files, false);
            case "sharedObject" -> new Synced(dir, files, true);
            case "serializedBuffer" -> new Serialized(dir, files);
            case "hashMap" -> new Plain(dir, files);
            case "lockedHashMap" -> new Locked(dir, files);
            default -> throw new IllegalArgumentException(impl);
        };
    }

    static String key(int k) {
        return "key" + k;
    }

    static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }

    /** Spool's SyncedMap: write-through, or inside an open scope (shared live objects). */
    static final class Synced implements Store {
        final SharedBuffer buffer = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0).build());
        final SyncedMap[] maps;
        final BufferScope scope;

        Synced(Path dir, int files, boolean buffered) {
            maps = new SyncedMap[files];
            for (int f = 0; f < files; f++) maps[f] = SyncedMap.open(dir.resolve(f + ".json"), buffer);
            scope = buffered ? buffer.openScope() : null;
            if (buffered) for (SyncedMap m : maps) m.size(); // loaded once, as an application would
        }

        @Override public void set(int file, String key, Object value) { maps[file].put(key, value); }
        @Override public Object get(int file, String key) { return maps[file].get(key); }

        @Override
        public void close() {
            if (scope != null) scope.close();
            buffer.close();
        }
    }

    /**
     * The serialized-bytes buffer (signac's earlier design): each file's content kept encoded in
     * memory; every write decodes, changes and re-encodes; every read decodes.
     */
    static final class Serialized implements Store {
        final byte[][] content;

        Serialized(Path dir, int files) throws IOException {
            content = new byte[files][];
            for (int f = 0; f < files; f++) content[f] = Files.readAllBytes(dir.resolve(f + ".json"));
        }

        @SuppressWarnings("unchecked")
        private Map<String, Object> decode(int f) {
            try {
                return JSON.readValue(content[f], LinkedHashMap.class);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void set(int file, String key, Object value) {
            Map<String, Object> m = decode(file);
            m.put(key, value);
            try {
                content[file] = JSON.writeValueAsBytes(m);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override public Object get(int file, String key) { return decode(file).get(key); }
        @Override public void close() {}
    }

    /** The floor: plain HashMaps, no persistence at all. */
    static final class Plain implements Store {
        final Map<String, Object>[] maps;

        @SuppressWarnings("unchecked")
        Plain(Path dir, int files) throws IOException {
            maps = new Map[files];
            for (int f = 0; f < files; f++) maps[f] = new HashMap<>(JSON.readValue(dir.resolve(f + ".json").toFile(), Map.class));
        }

        @Override public void set(int file, String key, Object value) { maps[file].put(key, value); }
        @Override public Object get(int file, String key) { return maps[file].get(key); }
        @Override public void close() {}
    }

    /**
     * The floor of any design that serialises each call on a per-file monitor (as the shared
     * object does, for atomic calls and one live object per file): a HashMap read and changed
     * under its own monitor, nothing else.
     */
    static final class Locked implements Store {
        final Plain plain;

        Locked(Path dir, int files) throws IOException {
            plain = new Plain(dir, files);
        }

        @Override
        public void set(int file, String key, Object value) {
            Map<String, Object> m = plain.maps[file];
            synchronized (m) {
                m.put(key, value);
            }
        }

        @Override
        public Object get(int file, String key) {
            Map<String, Object> m = plain.maps[file];
            synchronized (m) {
                return m.get(key);
            }
        }

        @Override public void close() {}
    }
}
