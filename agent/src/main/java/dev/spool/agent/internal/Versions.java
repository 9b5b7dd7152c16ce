package dev.spool.agent.internal;

import java.io.File;
import java.io.IOException;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/** The agent's version, from its jar's manifest ({@code Implementation-Version}). */
final class Versions {

    private Versions() {}

    static String of(File agentJar) {
        try (JarFile jar = new JarFile(agentJar, false)) {
            Manifest m = jar.getManifest();
            String v = m == null ? null : m.getMainAttributes().getValue("Implementation-Version");
            return v == null ? "unknown" : v;
        } catch (IOException e) {
            return "unknown";
        }
    }
}
