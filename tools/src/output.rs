//! Where a tool's output goes. A regular file is written through a
//! temporary file beside it and renamed into place only when everything
//! succeeded, so a failed run leaves no partial file. A large file already
//! at the destination is removed on another thread when printing starts
//! (see [`Sink::begin_part`]). A destination that
//! exists and is not a regular file (`/dev/null`, a pipe, a terminal) is
//! written in place: renaming over it would replace the device with a plain
//! file.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Where printed output goes, one or more parts separated by a marker.
/// Nothing appears in a regular file unless every part succeeded.
pub enum Sink {
    /// Standard output, written as printed (a single part).
    Stdout { parts: usize },
    /// Standard output with several parts: held until all succeeded.
    Held { buf: Vec<u8>, parts: usize },
    /// A regular file (or a new one); the temporary file (and the thread
    /// writing it) is created with the first part.
    File {
        path: PathBuf,
        tmp: Option<(tempfile::NamedTempFile, BackgroundWriter)>,
        parts: usize,
        /// The thread removing the file that was at `path`, if any.
        clearing: Option<std::thread::JoinHandle<()>>,
    },
    /// An existing destination that is not a regular file, written in place.
    Special {
        path: PathBuf,
        writer: Option<BackgroundWriter>,
        parts: usize,
    },
}

/// Whether `path` names something that exists and is not a regular file
/// (a device such as `/dev/null`, a pipe or a socket), which must be written
/// in place instead of replaced by a rename.
pub fn is_special_destination(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file())
}

/// The directory a temporary file for `path` is created in.
fn directory_of(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// A new temporary file in the directory of the output file `path`, with
/// the permissions the output file gets, as mlir-opt gives them (it writes
/// the file in place): those of the regular file already at `path`, or, for
/// a new file, read and write for all less the umask (tempfile's own files
/// are private, 0600, whatever the umask). An error is the operating
/// system's alone: tempfile's adds the temporary file's name (`at path
/// ".../.tmp2h5PSp"`), which the user never gave and which does not exist;
/// the caller names the output file instead.
fn temp_file_for(path: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    #[cfg(unix)]
    {
        use std::fs::Permissions;
        use std::os::unix::fs::PermissionsExt;
        let existing = std::fs::metadata(path)
            .ok()
            .filter(|m| m.is_file())
            .map(|m| m.permissions().mode() & 0o777);
        // Created with 0666: the kernel applies the umask.
        let f = tempfile::Builder::new()
            .permissions(Permissions::from_mode(0o666))
            .tempfile_in(directory_of(path))
            .map_err(without_temp_path)?;
        if let Some(mode) = existing {
            f.as_file().set_permissions(Permissions::from_mode(mode))?;
        }
        Ok(f)
    }
    #[cfg(not(unix))]
    tempfile::NamedTempFile::new_in(directory_of(path)).map_err(without_temp_path)
}

/// `e` without the path tempfile wraps around the operating system's error
/// (its message is the error's then ` at path "..."`; the error itself is
/// not reachable through the wrapper).
fn without_temp_path(e: std::io::Error) -> std::io::Error {
    if e.raw_os_error().is_some() {
        return e;
    }
    let text = e.to_string();
    match text.rsplit_once(" at path \"") {
        Some((message, _)) => std::io::Error::new(e.kind(), message.to_string()),
        None => e,
    }
}

/// Opens an existing special destination for writing.
fn open_in_place(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::OpenOptions::new().write(true).open(path)
}

/// Writes `bytes` to the file at `path`: through a temporary file renamed
/// into place for a regular file, so that a failure leaves no partial file;
/// in place for a device or pipe.
pub fn write_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if is_special_destination(path) {
        let mut f = open_in_place(path)?;
        f.write_all(bytes)?;
        return f.flush();
    }
    let mut f = temp_file_for(path)?;
    f.write_all(bytes)?;
    f.persist(path).map_err(|e| without_temp_path(e.error))?;
    Ok(())
}

impl Sink {
    /// Where a long print may keep its text until the alias definitions
    /// that precede it are known ([`lf_ir::PrintOptions::spill_dir`]): the
    /// output file's directory, or the system's temporary directory for
    /// standard output and special files.
    pub fn spill_dir(&self) -> PathBuf {
        match self {
            Sink::File { path, .. } => directory_of(path).to_path_buf(),
            Sink::Stdout { .. } | Sink::Held { .. } | Sink::Special { .. } => std::env::temp_dir(),
        }
    }

    /// The sink for the `-o` argument `output` (`-` is standard output);
    /// `several_parts` says whether more than one part will be printed.
    pub fn new(output: &str, several_parts: bool) -> Sink {
        match output {
            "-" if several_parts => Sink::Held {
                buf: Vec::new(),
                parts: 0,
            },
            "-" => Sink::Stdout { parts: 0 },
            _ if is_special_destination(Path::new(output)) => Sink::Special {
                path: PathBuf::from(output),
                writer: None,
                parts: 0,
            },
            _ => Sink::File {
                path: PathBuf::from(output),
                tmp: None,
                parts: 0,
                clearing: None,
            },
        }
    }

    /// Starts the next part (writing `separator` before all but the first)
    /// and returns the writer to print it to.
    pub fn begin_part(&mut self, separator: &[u8]) -> std::io::Result<Box<dyn Write + '_>> {
        let (parts, w): (&mut usize, Box<dyn Write + '_>) = match self {
            Sink::Stdout { parts } => (parts, Box::new(std::io::stdout().lock())),
            Sink::Held { buf, parts } => (parts, Box::new(buf)),
            Sink::File {
                path,
                tmp,
                parts,
                clearing,
            } => {
                if tmp.is_none() {
                    // The temporary file first: it takes the old file's permissions.
                    let t = temp_file_for(path)?;
                    *clearing = remove_large_file_in_background(path);
                    let w = BackgroundWriter::new(t.as_file().try_clone()?);
                    *tmp = Some((t, w));
                }
                let w = &mut tmp.as_mut().expect("temporary file").1;
                (parts, Box::new(w))
            }
            Sink::Special { path, writer, parts } => {
                if writer.is_none() {
                    *writer = Some(BackgroundWriter::new(open_in_place(path)?));
                }
                (parts, Box::new(writer.as_mut().expect("writer")))
            }
        };
        let mut w = w;
        if *parts > 0 {
            w.write_all(separator)?;
        }
        *parts += 1;
        Ok(w)
    }

    /// Makes the output appear at its destination.
    pub fn finish(self) -> std::io::Result<()> {
        match self {
            Sink::Stdout { .. } => Ok(()),
            Sink::Held { buf, .. } => {
                let mut out = std::io::stdout().lock();
                out.write_all(&buf)?;
                out.flush()
            }
            Sink::File {
                path, tmp, clearing, ..
            } => {
                if let Some(t) = clearing {
                    let _ = t.join();
                }
                let tmp = match tmp {
                    Some((t, mut w)) => {
                        w.finish()?;
                        t
                    }
                    // Nothing printed (no part): still write an empty file.
                    None => temp_file_for(&path)?,
                };
                tmp.persist(&path).map_err(|e| without_temp_path(e.error))?;
                Ok(())
            }
            Sink::Special { writer, .. } => match writer {
                Some(mut w) => w.finish(),
                None => Ok(()),
            },
        }
    }
}

/// Files at least this large at the destination are removed in the background.
const LARGE_FILE: u64 = 1 << 20;

/// Starts removing the regular file at `path` on a thread of its own, when
/// it is large. The rename that puts the new output in place would remove it
/// anyway, but then its blocks are freed inside the rename, on the run's
/// critical path (about 25 ms per 100 MB on ext4 mounted with `discard`);
/// printing starts only once the input was parsed, verified and transformed,
/// so the removal overlaps the printing. As with MLIR's tools, which
/// truncate the output file when they open it, a run that fails while
/// printing leaves no file at all there.
fn remove_large_file_in_background(path: &Path) -> Option<std::thread::JoinHandle<()>> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    if !meta.file_type().is_file() || meta.len() < LARGE_FILE {
        return None;
    }
    let path = path.to_path_buf();
    std::thread::Builder::new()
        .name("lf-remove-old-output".into())
        .spawn(move || {
            let _ = std::fs::remove_file(path);
        })
        .ok()
}

/// Size of the buffers handed to the writing thread. Up to four are in use
/// at once; at 256 KB they cost about 200 page faults of fresh memory, a
/// tenth of a 10k-op run's, for no fewer copies.
const WRITE_CHUNK: usize = 1 << 16;

/// A writer that hands full buffers to a thread that writes them to a file,
/// so that the kernel's copying overlaps the printing. Buffers go back to the
/// printer for reuse. A write error is returned by [`BackgroundWriter::finish`]
/// (or by the next write after the thread stopped).
pub struct BackgroundWriter {
    buf: Vec<u8>,
    to_thread: Option<std::sync::mpsc::SyncSender<Vec<u8>>>,
    recycled: std::sync::mpsc::Receiver<Vec<u8>>,
    thread: Option<std::thread::JoinHandle<std::io::Result<()>>>,
}

impl BackgroundWriter {
    fn new(mut file: std::fs::File) -> Self {
        let (to_thread, from_printer) = std::sync::mpsc::sync_channel::<Vec<u8>>(2);
        let (give_back, recycled) = std::sync::mpsc::channel::<Vec<u8>>();
        let thread = std::thread::spawn(move || -> std::io::Result<()> {
            for mut chunk in from_printer {
                file.write_all(&chunk)?;
                chunk.clear();
                let _ = give_back.send(chunk);
            }
            file.flush()
        });
        BackgroundWriter {
            buf: Vec::with_capacity(WRITE_CHUNK),
            to_thread: Some(to_thread),
            recycled,
            thread: Some(thread),
        }
    }

    /// Hands the current buffer to the thread.
    fn send(&mut self) -> std::io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let next = self
            .recycled
            .try_recv()
            .unwrap_or_else(|_| Vec::with_capacity(WRITE_CHUNK));
        let full = std::mem::replace(&mut self.buf, next);
        match self.to_thread.as_ref().map(|t| t.send(full)) {
            Some(Ok(())) => Ok(()),
            // The thread stopped on an error: `finish` reports it.
            _ => Err(self
                .join()
                .err()
                .unwrap_or_else(|| std::io::Error::other("writer thread stopped"))),
        }
    }

    fn join(&mut self) -> std::io::Result<()> {
        self.to_thread = None;
        match self.thread.take().map(|t| t.join()) {
            None => Ok(()),
            Some(Ok(r)) => r,
            Some(Err(_)) => Err(std::io::Error::other("writer thread panicked")),
        }
    }

    /// Writes what is left and waits for the thread.
    fn finish(&mut self) -> std::io::Result<()> {
        self.send()?;
        self.join()
    }
}

impl Write for BackgroundWriter {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.write_all(data)?;
        Ok(data.len())
    }

    fn write_all(&mut self, mut data: &[u8]) -> std::io::Result<()> {
        while !data.is_empty() {
            let room = WRITE_CHUNK - self.buf.len().min(WRITE_CHUNK);
            let n = room.min(data.len());
            self.buf.extend_from_slice(&data[..n]);
            data = &data[n..];
            if self.buf.len() >= WRITE_CHUNK {
                self.send()?;
            }
        }
        Ok(())
    }

    /// Hands the buffered bytes to the thread (without waiting for the write).
    fn flush(&mut self) -> std::io::Result<()> {
        self.send()
    }
}
