package dev.spool.agent.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.spool.bridge.Hooks;
import dev.spool.bridge.SpoolHooks;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The woven bytecode itself: real Jackson (the test class path's) and {@link WovenEmitter} are
 * loaded a second time by a child-first class loader through {@link AsmWeaver}, so the JVM
 * verifies the inserted code and its frames, then called with a scripted {@link SpoolHooks}
 * published in the bridge (the agent's real hooks are covered by the forked-JVM tests).
 */
class AsmWeaverTest {

    private static final String EMITTER = WovenEmitter.class.getName();

    @TempDir
    Path dir;

    private final AgentControl control = new AgentControl("test", Map.of());
    private final ScriptedHooks hooks = new ScriptedHooks();

    @AfterEach
    void uninstall() {
        Hooks.install(null, null);
    }

    @Test
    void shouldSkipTheOriginalWrite_whenTheHookTakesIt() throws Exception {
        Object mapper = wovenMapper();
        File file = dir.resolve("a.json").toFile();
        hooks.write = f -> true;
        call(mapper, "writeValue", new Class<?>[] {File.class, Object.class}, file, Map.of("a", 1));
        assertFalse(file.exists());
        assertEquals(List.of("write " + file + " {a=1}"), hooks.calls);
        assertTrue(control.instrumentedClasses().contains("com.fasterxml.jackson.databind.ObjectMapper"));
    }

    @Test
    void shouldRunTheOriginalWrite_whenTheHookDeclinesOrFails() throws Exception {
        Object mapper = wovenMapper();
        File file = dir.resolve("b.json").toFile();
        hooks.write = f -> false;
        call(mapper, "writeValue", new Class<?>[] {File.class, Object.class}, file, Map.of("a", 1));
        assertEquals("{\"a\":1}", Files.readString(file.toPath()));
        hooks.write = f -> {
            throw new IllegalStateException("broken hook");
        };
        call(mapper, "writeValue", new Class<?>[] {File.class, Object.class}, file, Map.of("a", 2));
        assertEquals("{\"a\":2}", Files.readString(file.toPath()));
    }

    @Test
    void shouldThrowTheHooksIOException_fromWriteAndRead() throws Exception {
        Object mapper = wovenMapper();
        File file = dir.resolve("c.json").toFile();
        hooks.write = f -> {
            throw new UncheckedIOException(new IOException("earlier flush failed"));
        };
        IOException e = assertThrows(IOException.class,
                () -> call(mapper, "writeValue", new Class<?>[] {File.class, Object.class}, file, 1));
        assertEquals("earlier flush failed", e.getMessage());
        hooks.read = f -> {
            throw new UncheckedIOException(new IOException("earlier flush failed"));
        };
        assertThrows(IOException.class, () -> call(mapper, "readTree", new Class<?>[] {File.class}, file));
    }

    @Test
    void shouldReturnTheServedValue_nullForTheNullMarker_andReadTheFileOtherwise() throws Exception {
        Object mapper = wovenMapper();
        File file = dir.resolve("d.json").toFile();
        Files.writeString(file.toPath(), "{\"on\":\"disk\"}");
        hooks.read = f -> Map.of("from", "memory");
        assertEquals(Map.of("from", "memory"), call(mapper, "readValue", new Class<?>[] {File.class, Class.class}, file, Map.class));
        assertEquals(List.of("read readValue " + file + " interface java.util.Map"), hooks.calls);
        hooks.read = f -> Hooks.NULL;
        assertNull(call(mapper, "readValue", new Class<?>[] {File.class, Class.class}, file, Map.class));
        hooks.read = f -> null;
        assertEquals(Map.of("on", "disk"), call(mapper, "readValue", new Class<?>[] {File.class, Class.class}, file, Map.class));
        hooks.read = f -> "not a JsonNode"; // a wrong type falls back to the original read
        assertEquals("{\"on\":\"disk\"}", String.valueOf(call(mapper, "readTree", new Class<?>[] {File.class}, file)));
    }

    @Test
    void shouldServeObjectReaderReads_withNoSecondArgument() throws Exception {
        Object mapper = wovenMapper();
        Object reader = call(mapper, "readerFor", new Class<?>[] {Class.class}, Map.class);
        File file = dir.resolve("e.json").toFile();
        hooks.read = f -> Map.of("x", 1);
        assertEquals(Map.of("x", 1), call(reader, "readValue", new Class<?>[] {File.class}, file));
        assertEquals("read readValue " + file + " null", hooks.calls.get(hooks.calls.size() - 1));
    }

    @Test
    void shouldRouteEmitterCalls_skippingTheBodyWithTheDefaultResult() throws Exception {
        Class<?> emitter = weave(Set.of(EMITTER), Map.of(internal(EMITTER), Set.of("log", "count", "make", "twice"))).loadClass(EMITTER);
        EmitterCalls calls = (EmitterCalls) emitter.getConstructor().newInstance();
        hooks.emit = true;
        calls.log("hi");
        assertEquals(0, calls.count(1L, 2.5, true, 'c', (byte) 3, (short) 4, 5.5f, 6));
        assertEquals(List.of(Long.class, Double.class, Boolean.class, Character.class, Byte.class, Short.class, Float.class, Integer.class),
                hooks.lastArgTypes);
        assertNull(calls.make("m", new int[] {1, 2}));
        assertEquals(0L, emitter.getMethod("twice", long.class).invoke(null, 21L));
        assertEquals(List.of(), calls.ran());
        assertEquals(List.of(
                "emit " + EMITTER + ".log [hi]",
                "emit " + EMITTER + ".count [1, 2.5, true, c, 3, 4, 5.5, 6]",
                "emit " + EMITTER + ".make [m, [1, 2]]",
                "emit " + EMITTER + ".twice [21]"), hooks.calls);
    }

    @Test
    void shouldRunEmitterBodies_inTeeModeAndWhenTheHookFails() throws Exception {
        Class<?> emitter = weave(Set.of(EMITTER), Map.of(internal(EMITTER), Set.of("log", "count", "make", "twice"))).loadClass(EMITTER);
        EmitterCalls calls = (EmitterCalls) emitter.getConstructor().newInstance();
        hooks.emit = false;
        calls.log("hi");
        assertEquals(42, calls.count(1L, 2.5, true, 'c', (byte) 3, (short) 4, 5.5f, 6));
        assertEquals("m2", calls.make("m", new int[] {1, 2}));
        assertEquals(42L, emitter.getMethod("twice", long.class).invoke(null, 21L));
        hooks.emitFails = true;
        calls.log("again");
        assertEquals(List.of("log hi", "count", "make m", "log again"), calls.ran());
    }

    @Test
    void shouldLeaveAClassWithoutTargetMethodsUnchanged() {
        AsmWeaver weaver = new AsmWeaver(true, true, true, Map.of(), control);
        assertNull(weaver.transform(null, internal(EMITTER), null, null, bytesOf(EMITTER)));
        assertTrue(control.instrumentedClasses().isEmpty());
    }

    @Test
    void shouldReportAClassItCannotRead_andLeaveItUnchanged() {
        AsmWeaver weaver = new AsmWeaver(true, true, true, Map.of(), control);
        assertNull(weaver.transform(null, "com/fasterxml/jackson/databind/ObjectMapper", null, null, new byte[] {1, 2, 3}));
        assertEquals(1, control.errors());
    }

    private Object wovenMapper() throws Exception {
        ClassLoader loader = weave(Set.of("com.fasterxml.jackson."), Map.of());
        return loader.loadClass("com.fasterxml.jackson.databind.ObjectMapper").getConstructor().newInstance();
    }

    /** A child-first loader for names starting with one of {@code prefixes}, each class passed through the weaver. */
    private ClassLoader weave(Set<String> prefixes, Map<String, Set<String>> emitters) {
        Hooks.install(hooks, null);
        AsmWeaver weaver = new AsmWeaver(true, true, true, emitters, control);
        return new ClassLoader(AsmWeaverTest.class.getClassLoader()) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                if (prefixes.stream().noneMatch(name::startsWith)) {
                    return super.loadClass(name, resolve);
                }
                synchronized (getClassLoadingLock(name)) {
                    Class<?> c = findLoadedClass(name);
                    if (c == null) {
                        byte[] bytes = bytesOf(name);
                        byte[] woven = weaver.transform(this, internal(name), null, null, bytes);
                        byte[] b = woven == null ? bytes : woven;
                        c = defineClass(name, b, 0, b.length);
                    }
                    return c;
                }
            }
        };
    }

    private static String internal(String name) {
        return name.replace('.', '/');
    }

    private static byte[] bytesOf(String name) {
        try (InputStream in = AsmWeaverTest.class.getClassLoader().getResourceAsStream(internal(name) + ".class")) {
            return in.readAllBytes();
        } catch (IOException | NullPointerException e) {
            throw new IllegalStateException("no class file for " + name, e);
        }
    }

    private static Object call(Object target, String method, Class<?>[] types, Object... args) throws Exception {
        Method m = target.getClass().getMethod(method, types);
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception ex ? ex : new IllegalStateException(e.getCause());
        }
    }

    /** The bridge's counterpart scripted per test; records each call. */
    private static final class ScriptedHooks implements SpoolHooks {
        final List<String> calls = new ArrayList<>();
        List<Class<?>> lastArgTypes = List.of();
        Function<File, Boolean> write = f -> false;
        Function<File, Object> read = f -> null;
        boolean emit;
        boolean emitFails;

        @Override
        public boolean writeJson(Object writer, File file, Object value) throws IOException {
            calls.add("write " + file + " " + value);
            try {
                return write.apply(file);
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
        }

        @Override
        public void writeJsonBypassed(File file) {
            calls.add("bypassed " + file);
        }

        @Override
        public Object readJson(Object reader, String method, File file, Object type) throws IOException {
            calls.add("read " + method + " " + file + " " + type);
            try {
                return read.apply(file);
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
        }

        @Override
        public OutputStream wrapLogStream(String kind, Object owner, String name, OutputStream out) {
            return out;
        }

        @Override
        public boolean emit(String method, Object[] args) {
            if (emitFails) {
                throw new IllegalStateException("broken hook");
            }
            List<Object> shown = new ArrayList<>();
            List<Class<?>> types = new ArrayList<>();
            for (Object a : args) {
                shown.add(a instanceof int[] ints ? Arrays.toString(ints) : a);
                types.add(a == null ? null : a.getClass());
            }
            lastArgTypes = types;
            calls.add("emit " + method + " " + shown);
            return emit;
        }
    }
}
