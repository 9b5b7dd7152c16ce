package dev.spool.agent.files;

import dev.spool.bridge.Hooks;
import java.util.Map;
import java.util.Set;

/**
 * Which JDK methods carry the host's file operations, and what each hands to
 * {@code Hooks.fileOp}: the few funnels every public entry point passes through, on Java 17 and on
 * Java 25 (checked with {@code javap} on both), all loaded before {@code premain}, so woven by
 * retransformation (code inserted at the method's entry only).
 * <ul>
 *   <li>{@code java.io}: {@code FileInputStream.open(String)} (every {@code FileInputStream},
 *       {@code FileReader}), {@code FileOutputStream.open(String, boolean)} (every
 *       {@code FileOutputStream}, {@code FileWriter}, append or not), {@code RandomAccessFile.open(String, int)}
 *       (its mode tells read from write), {@code File.length()}, {@code File.delete()},
 *       {@code File.renameTo(File)}, {@code File.exists()}, {@code isFile()}, {@code canRead()},
 *       {@code canWrite()}, {@code lastModified()},
 *       {@code setLastModified(long)} (an attribute change: the buffered file is written first, as
 *       for a direct write, so the change applies to it and is not undone by a later flush)
 *       and {@code normalizedList()} (behind every {@code list}/{@code listFiles}; the
 *       {@code java.io.FileSystem} methods behind these are native on Java 17);
 *   <li>{@code java.nio.file}: {@code UnixFileSystemProvider.newByteChannel}, {@code newFileChannel},
 *       {@code newAsynchronousFileChannel} (behind {@code Files.newInputStream}/{@code newOutputStream}/
 *       {@code readAllBytes}/{@code readString}/{@code lines}/{@code newBufferedReader}/{@code write}/
 *       {@code writeString}, {@code FileChannel.open}; the options tell read from write),
 *       {@code readAttributes(Path, Class, LinkOption...)} ({@code Files.size},
 *       {@code getLastModifiedTime}, ...), {@code copy}, {@code move}, {@code newDirectoryStream}
 *       ({@code Files.list}/{@code walk}/{@code find}), {@code checkAccess} ({@code Files.isReadable},
 *       {@code exists} with links followed), {@code exists(Path)} and {@code isRegularFile(Path)}
 *       (Java 17's {@code Files.exists}/{@code isRegularFile}), {@code exists(Path, LinkOption...)}
 *       and {@code readAttributesIfExists} (Java 25's), {@code getFileAttributeView(Path, Class, ...)}
 *       ({@code Files.setLastModifiedTime}/{@code setPosixFilePermissions}/{@code setOwner}: an
 *       attribute change, as {@code setLastModified}), and
 *       {@code AbstractFileSystemProvider.delete}/{@code deleteIfExists}/{@code setAttribute}/
 *       {@code readAttributes(Path, String, ...)} ({@code Files.getAttribute}, {@code readAttributes} by name);
 *   <li>{@code java.lang}: {@code ProcessBuilder.start(Redirect[])} (behind {@code start()},
 *       {@code startPipeline} and {@code Runtime.exec}): a child process may read any buffered file.
 * </ul>
 * A method absent on the running JDK (the Java 17 or the Java 25 ones) is simply not found.
 * Immutable.
 */
public final class FileOpWeaves {

    /** One woven method: the {@code Hooks.FILE_*} kind and the entry values passed (0 = this, n = argument n, -1 = none). */
    public record Weave(int op, int a, int b) {}

    private static final String STRING = "Ljava/lang/String;";
    private static final String PATH = "Ljava/nio/file/Path;";
    private static final String OPEN = "(" + PATH + "Ljava/util/Set;";

    /** Internal class name -> (method name + descriptor) -> what it passes. */
    private static final Map<String, Map<String, Weave>> WEAVES = Map.of(
            "java/io/FileInputStream", Map.of("open(" + STRING + ")V", new Weave(Hooks.FILE_READ, 1, -1)),
            "java/io/FileOutputStream", Map.of("open(" + STRING + "Z)V", new Weave(Hooks.FILE_WRITE, 1, -1)),
            "java/io/RandomAccessFile", Map.of("open(" + STRING + "I)V", new Weave(Hooks.FILE_OPEN_MODE, 1, 2)),
            "java/lang/ProcessBuilder", Map.of( // behind start(), startPipeline and Runtime.exec; loaded late: woven as it loads
                    "start([Ljava/lang/ProcessBuilder$Redirect;)Ljava/lang/Process;", new Weave(Hooks.FILE_SPAWN, -1, -1)),
            "java/io/File", Map.ofEntries(
                    Map.entry("length()J", new Weave(Hooks.FILE_READ_ATTRIBUTES, 0, -1)),
                    Map.entry("lastModified()J", new Weave(Hooks.FILE_READ_ATTRIBUTES, 0, -1)),
                    Map.entry("setLastModified(J)Z", new Weave(Hooks.FILE_WRITE, 0, -1)),
                    Map.entry("exists()Z", new Weave(Hooks.FILE_STAT, 0, -1)),
                    Map.entry("isFile()Z", new Weave(Hooks.FILE_STAT, 0, -1)),
                    Map.entry("canRead()Z", new Weave(Hooks.FILE_STAT, 0, -1)),
                    Map.entry("canWrite()Z", new Weave(Hooks.FILE_STAT, 0, -1)),
                    Map.entry("normalizedList()[Ljava/lang/String;", new Weave(Hooks.FILE_LIST, 0, -1)),
                    Map.entry("delete()Z", new Weave(Hooks.FILE_DELETE, 0, -1)),
                    Map.entry("renameTo(Ljava/io/File;)Z", new Weave(Hooks.FILE_MOVE, 0, 1)),
                    Map.entry("createNewFile()Z", new Weave(Hooks.FILE_STAT, 0, -1)), // finds a new file not created yet: false, as plain
                    // mode changes: written first (a new file created), as for a direct write
                    Map.entry("setReadOnly()Z", new Weave(Hooks.FILE_WRITE, 0, -1)),
                    Map.entry("setWritable(ZZ)Z", new Weave(Hooks.FILE_WRITE, 0, -1)),
                    Map.entry("setReadable(ZZ)Z", new Weave(Hooks.FILE_WRITE, 0, -1)),
                    Map.entry("setExecutable(ZZ)Z", new Weave(Hooks.FILE_WRITE, 0, -1))),
            "sun/nio/fs/UnixPath", Map.of( // Path.toRealPath: finds a new file not created yet
                    "toRealPath([Ljava/nio/file/LinkOption;)Ljava/nio/file/Path;", new Weave(Hooks.FILE_STAT, 0, -1)),
            "sun/nio/fs/UnixFileSystemProvider", Map.ofEntries(
                    Map.entry("newByteChannel" + OPEN + "[Ljava/nio/file/attribute/FileAttribute;)Ljava/nio/channels/SeekableByteChannel;",
                            new Weave(Hooks.FILE_OPEN_OPTIONS, 1, 2)),
                    Map.entry("newFileChannel" + OPEN + "[Ljava/nio/file/attribute/FileAttribute;)Ljava/nio/channels/FileChannel;",
                            new Weave(Hooks.FILE_OPEN_OPTIONS, 1, 2)),
                    Map.entry("newAsynchronousFileChannel" + OPEN + "Ljava/util/concurrent/ExecutorService;"
                            + "[Ljava/nio/file/attribute/FileAttribute;)Ljava/nio/channels/AsynchronousFileChannel;",
                            new Weave(Hooks.FILE_OPEN_OPTIONS, 1, 2)),
                    Map.entry("readAttributes(" + PATH + "Ljava/lang/Class;[Ljava/nio/file/LinkOption;)Ljava/nio/file/attribute/BasicFileAttributes;",
                            new Weave(Hooks.FILE_READ_ATTRIBUTES, 1, -1)),
                    Map.entry("copy(" + PATH + PATH + "[Ljava/nio/file/CopyOption;)V", new Weave(Hooks.FILE_COPY, 1, 2)),
                    Map.entry("move(" + PATH + PATH + "[Ljava/nio/file/CopyOption;)V", new Weave(Hooks.FILE_MOVE, 1, 2)),
                    // Files.createLink(link, existing): the new name must share the current content
                    Map.entry("createLink(" + PATH + PATH + ")V", new Weave(Hooks.FILE_WRITE, 2, -1)),
                    Map.entry("newDirectoryStream(" + PATH + "Ljava/nio/file/DirectoryStream$Filter;)Ljava/nio/file/DirectoryStream;",
                            new Weave(Hooks.FILE_LIST, 1, -1)),
                    // attribute views: Files.setLastModifiedTime/setPosixFilePermissions/setOwner/getFileAttributeView
                    Map.entry("getFileAttributeView(" + PATH + "Ljava/lang/Class;[Ljava/nio/file/LinkOption;)"
                            + "Ljava/nio/file/attribute/FileAttributeView;", new Weave(Hooks.FILE_WRITE, 1, -1)),
                    Map.entry("checkAccess(" + PATH + "[Ljava/nio/file/AccessMode;)V", new Weave(Hooks.FILE_STAT, 1, -1)),
                    Map.entry("exists(" + PATH + ")Z", new Weave(Hooks.FILE_STAT, 1, -1)), // Java 17
                    Map.entry("isRegularFile(" + PATH + ")Z", new Weave(Hooks.FILE_STAT, 1, -1)), // Java 17
                    Map.entry("exists(" + PATH + "[Ljava/nio/file/LinkOption;)Z", new Weave(Hooks.FILE_STAT, 1, -1)), // Java 25
                    Map.entry("readAttributesIfExists(" + PATH + "Ljava/lang/Class;[Ljava/nio/file/LinkOption;)"
                            + "Ljava/nio/file/attribute/BasicFileAttributes;", new Weave(Hooks.FILE_STAT, 1, -1))), // Java 25
            "sun/nio/fs/AbstractFileSystemProvider", Map.of(
                    "readAttributes(" + PATH + "Ljava/lang/String;[Ljava/nio/file/LinkOption;)Ljava/util/Map;", // Files.getAttribute
                    new Weave(Hooks.FILE_READ_ATTRIBUTES, 1, -1),
                    "setAttribute(" + PATH + "Ljava/lang/String;Ljava/lang/Object;[Ljava/nio/file/LinkOption;)V",
                    new Weave(Hooks.FILE_WRITE, 1, -1),
                    "delete(" + PATH + ")V", new Weave(Hooks.FILE_DELETE, 1, -1),
                    "deleteIfExists(" + PATH + ")Z", new Weave(Hooks.FILE_DELETE, 1, -1)));

    private FileOpWeaves() {}

    /** The classes to weave (internal names). */
    public static Set<String> classes() {
        return WEAVES.keySet();
    }

    /** What method {@code name}{@code desc} of class {@code internalName} passes, or null: not woven. */
    public static Weave of(String internalName, String name, String desc) {
        Map<String, Weave> methods = WEAVES.get(internalName);
        return methods == null ? null : methods.get(name + desc);
    }
}
