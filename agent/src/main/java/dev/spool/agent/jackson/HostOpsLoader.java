package dev.spool.agent.jackson;

import java.io.IOException;
import java.io.InputStream;

/**
 * The class loader that puts {@link HostOps} next to the host's Jackson: its parent is the
 * loader of the caller's Jackson class, so {@code HostOps} links against exactly the host's
 * Jackson; {@link HostJackson} alone comes from the agent's loader (the shared interface). The
 * class bytes are {@code HostOps.bytes} (and {@code HostOps$*.bytes}, {@code TokenWalker.bytes},
 * {@code TokenWalker$*.bytes}, {@code CaptureTokens.bytes}, {@code TokenReads.bytes}), the unrelocated class files the build copies before shading.
 * One loader per host Jackson class loader; parallel capable; holds no state.
 */
final class HostOpsLoader extends ClassLoader {

    static final String OPS = "dev.spool.agent.jackson.HostOps";
    /** The token walk {@code HostOps} measures with (it names {@code TokenBuffer.Segment}): host-side too. */
    static final String WALKER = "dev.spool.agent.jackson.TokenWalker";
    /** The watched {@code TokenBuffer} a write is captured into: host-side too. */
    static final String TOKENS = "dev.spool.agent.jackson.CaptureTokens";
    /** The reads answered from tokens: host-side too. */
    static final String READS = "dev.spool.agent.jackson.TokenReads";
    private static final String API = HostJackson.class.getName();

    static {
        registerAsParallelCapable();
    }

    private HostOpsLoader(ClassLoader host) {
        super("spool-jackson-ops", host);
    }

    /** A new {@link HostOps} bound to the Jackson that {@code jacksonClass} comes from. */
    static HostJackson forHost(Class<?> jacksonClass) throws ReflectiveOperationException, IOException, LinkageError {
        ClassLoader host = jacksonClass.getClassLoader();
        if (host == null) {
            throw new ClassNotFoundException("Jackson on the boot class path: no capture");
        }
        Class<?> ops = new HostOpsLoader(host).loadClass(OPS);
        return (HostJackson) ops.getConstructor().newInstance();
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (API.equals(name)) {
            return HostJackson.class;
        }
        if (name.equals(OPS) || name.startsWith(OPS + '$') || name.equals(WALKER) || name.startsWith(WALKER + '$')
                || name.equals(TOKENS) || name.equals(READS)) {
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                return c != null ? c : define(name);
            }
        }
        return super.loadClass(name, resolve);
    }

    private Class<?> define(String name) throws ClassNotFoundException {
        byte[] bytes;
        String resource = name.substring(name.lastIndexOf('.') + 1) + ".bytes";
        try (InputStream in = HostOpsLoader.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new ClassNotFoundException(name + ": " + resource + " missing from the agent");
            }
            bytes = in.readAllBytes();
        } catch (IOException e) {
            throw new ClassNotFoundException(name, e);
        }
        return defineClass(name, bytes, 0, bytes.length);
    }
}
