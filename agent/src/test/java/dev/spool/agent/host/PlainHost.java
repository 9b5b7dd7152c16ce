package dev.spool.agent.host;

import java.nio.file.Files;
import java.nio.file.Path;

/** Test host with no Jackson, no Logback, no logging: writes one file and says hello. Usage: {@code PlainHost <file>}. */
public final class PlainHost {

    public static void main(String[] args) throws Exception {
        Files.writeString(Path.of(args[0]), "hello from a host without Jackson or Logback\n");
        System.out.println("hello");
    }
}
