package dev.spool.agent.boot;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.security.cert.Certificate;
import java.util.Collections;
import java.util.Enumeration;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * The isolated class loader of Spool's implementation: it reads classes stored as
 * {@code inst/<name>.classdata} inside the agent jar, where no class loader of the host looks.
 * Its parent is the platform class loader, so it sees the JDK and the boot bridge
 * ({@code dev.spool.bridge}, defined in the boot loader) but never the host's classes —
 * and the host never sees Spool's runtime, ByteBuddy, Jackson or JCTools.
 *
 * <p>Thread-safe (parallel capable); the jar stays open for the life of the JVM.
 */
public final class AgentClassLoader extends ClassLoader {

    /** The folder inside the agent jar that holds the hidden implementation. */
    public static final String PREFIX = "inst/";
    private static final String CLASS_SUFFIX = ".classdata";

    static {
        registerAsParallelCapable();
    }

    private final File jarPath;
    private final JarFile jar;
    private final ProtectionDomain domain;
    private final String jarUrl;
    private final String title;
    private final String version;

    public AgentClassLoader(File jarPath) throws IOException {
        super("spool-agent", ClassLoader.getPlatformClassLoader());
        this.jarPath = jarPath;
        this.jar = new JarFile(jarPath, false);
        URL location = jarPath.toURI().toURL();
        this.domain = new ProtectionDomain(new CodeSource(location, (Certificate[]) null), null, this, null);
        this.jarUrl = "jar:" + location.toExternalForm() + "!/";
        Manifest manifest = jar.getManifest();
        Attributes main = manifest == null ? new Attributes() : manifest.getMainAttributes();
        this.title = main.getValue(Attributes.Name.IMPLEMENTATION_TITLE);
        this.version = main.getValue(Attributes.Name.IMPLEMENTATION_VERSION);
    }

    /** The agent jar this loader reads. */
    public File jarPath() {
        return jarPath;
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        JarEntry entry = jar.getJarEntry(PREFIX + name.replace('.', '/') + CLASS_SUFFIX);
        if (entry == null) {
            throw new ClassNotFoundException(name);
        }
        byte[] bytes;
        try (InputStream in = jar.getInputStream(entry)) {
            bytes = readAll(in);
        } catch (IOException e) {
            throw new ClassNotFoundException(name, e);
        }
        int dot = name.lastIndexOf('.');
        if (dot > 0) {
            String pkg = name.substring(0, dot);
            if (getDefinedPackage(pkg) == null) {
                try {
                    // the agent jar's Implementation-Version, e.g. for the CLI's --version
                    definePackage(pkg, null, null, null, title, version, null, null);
                } catch (IllegalArgumentException alreadyDefinedConcurrently) {
                    // another thread defined it first: same attributes
                }
            }
        }
        return defineClass(name, bytes, 0, bytes.length, domain);
    }

    @Override
    protected URL findResource(String name) {
        String entryName = entryName(name);
        if (jar.getJarEntry(entryName) == null) {
            return null;
        }
        try {
            return new URL(jarUrl + entryName);
        } catch (MalformedURLException e) {
            return null;
        }
    }

    @Override
    protected Enumeration<URL> findResources(String name) {
        URL url = findResource(name);
        return url == null ? Collections.emptyEnumeration() : Collections.enumeration(Collections.singletonList(url));
    }

    private static String entryName(String resource) {
        String name = resource.startsWith("/") ? resource.substring(1) : resource;
        if (name.endsWith(".class")) {
            name = name.substring(0, name.length() - ".class".length()) + CLASS_SUFFIX;
        }
        return PREFIX + name;
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
        byte[] chunk = new byte[8192];
        for (int n; (n = in.read(chunk)) > 0; ) {
            out.write(chunk, 0, n);
        }
        return out.toByteArray();
    }
}
