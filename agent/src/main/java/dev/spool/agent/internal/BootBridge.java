package dev.spool.agent.internal;

import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarFile;

/**
 * Puts the boot bridge ({@code dev.spool.bridge.*}, JDK types only) into the boot class loader
 * without appending anything to the boot class path, so class data sharing stays intact.
 *
 * <p>Why: {@code Instrumentation.appendToBootstrapClassLoaderSearch} (and the manifest's
 * {@code Boot-Class-Path}, which takes the same route) makes HotSpot turn off CDS for every class
 * loader but the boot loader and print "Sharing is only supported for boot loader classes because
 * bootstrap classpath has been appended" on every start. The bridge must be visible from the boot
 * loader because woven JDK classes (JUL's {@code FileHandler}) call it.
 *
 * <p>How: the agent's module is given access to {@code jdk.internal.misc} through
 * {@link Instrumentation#redefineModule} (the supported way for an agent to reach into
 * {@code java.base}); the bridge classes are then defined with a null (boot) loader by
 * {@code jdk.internal.misc.Unsafe.defineClass}. The result is the same as before: the classes live
 * in the boot loader's unnamed module under their own names. Only Spool's own (isolated) module
 * gets the export; the host's modules are unchanged.
 *
 * <p>If any step fails (a future JDK without that method), {@link Installer} falls back to
 * appending the jar to the boot class path: the warning returns, the agent works.
 */
final class BootBridge {

    static final String PACKAGE_PATH = "dev/spool/bridge/";

    private BootBridge() {}

    /**
     * Defines every {@code dev/spool/bridge/*.class} of the agent jar in the boot loader.
     *
     * @throws Exception when the JDK does not allow it or the jar holds no bridge
     */
    static void defineInBootLoader(Instrumentation inst, JarFile jar) throws Exception {
        Module base = Object.class.getModule();
        inst.redefineModule(base, Set.of(), Map.of("jdk.internal.misc", Set.of(BootBridge.class.getModule())),
                Map.of(), Set.of(), Map.of());
        Class<?> unsafeClass = Class.forName("jdk.internal.misc.Unsafe");
        Object unsafe = unsafeClass.getMethod("getUnsafe").invoke(null);
        Method define = unsafeClass.getMethod("defineClass", String.class, byte[].class, int.class, int.class,
                ClassLoader.class, java.security.ProtectionDomain.class);
        List<String> pending = bridgeClasses(jar);
        if (pending.isEmpty()) {
            throw new ClassNotFoundException("no " + PACKAGE_PATH + " classes in " + jar.getName());
        }
        // a class's super types must exist when it is defined: retry the rest until a pass defines nothing
        while (!pending.isEmpty()) {
            List<String> later = new ArrayList<>();
            Throwable last = null;
            for (String name : pending) {
                byte[] bytes = read(jar, name.replace('.', '/') + ".class");
                try {
                    define.invoke(unsafe, name, bytes, 0, bytes.length, null, null);
                } catch (java.lang.reflect.InvocationTargetException e) {
                    if (!(e.getCause() instanceof NoClassDefFoundError)) {
                        throw e;
                    }
                    later.add(name);
                    last = e.getCause();
                }
            }
            if (later.size() == pending.size()) {
                throw new IllegalStateException("cannot define " + later, last);
            }
            pending = later;
        }
    }

    /** The bridge's class names: the build's index, or the jar's {@code dev/spool/bridge/*.class} entries. */
    private static List<String> bridgeClasses(JarFile jar) throws IOException {
        return AgentJarIndex.classes(jar, AgentJarIndex.BRIDGE, BootBridge::bridgeClassOf);
    }

    /** The class an entry named {@code entry} holds if it is a bridge class (not package-info), else null. */
    static String bridgeClassOf(String entry) {
        if (entry.startsWith(PACKAGE_PATH) && entry.endsWith(".class") && !entry.endsWith("package-info.class")
                && entry.indexOf('/', PACKAGE_PATH.length()) < 0) {
            return entry.substring(0, entry.length() - ".class".length()).replace('/', '.');
        }
        return null;
    }

    private static byte[] read(JarFile jar, String entry) throws IOException {
        try (InputStream in = jar.getInputStream(jar.getJarEntry(entry))) {
            return in.readAllBytes();
        }
    }
}
