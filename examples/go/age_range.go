// age_range prints a byte range of an age (or pcrypt) file's plaintext, read through libpcrypt's C API from
// Go: cgo and the standard library only. The file is an io.ReaderAt of plaintext, so the standard library's
// io.SectionReader picks the range and only the records that hold it are read and authenticated; failures
// are Go errors that carry libpcrypt's stable code, and the program decides by code, never by message.
//
//	age_range IDENTITY-FILE ENCRYPTED-FILE OFFSET LENGTH > part
//
// Build it against an installed libpcrypt: PKG_CONFIG_PATH=PREFIX/lib/pkgconfig go build age_range.go
package main

/*
#cgo pkg-config: pcrypt
#include <pcrypt/pcrypt_c.h>
#include <stdio.h>
#include <stdlib.h>

// libpcrypt keeps a failure's details per OS thread, and Go may move a goroutine to another thread between
// two cgo calls: so each call that can fail copies its failure's details in the same cgo call.
typedef struct {
  int code;
  char message[512];
  char hint[512];
} failure;

static int caught(int status, failure* why) {
  if (status != PCRYPT_OK) {
    why->code = pcrypt_error_code();
    snprintf(why->message, sizeof why->message, "%s", pcrypt_error_message());
    snprintf(why->hint, sizeof why->hint, "%s", pcrypt_error_hint());
  }
  return status;
}

static int open_unlocked(const char* identity_file, const char* path, pcrypt_file** file, failure* why) {
  pcrypt_credentials* by = pcrypt_credentials_new();
  pcrypt_source* source = pcrypt_source_path(path);
  int status = by != NULL && source != NULL ? PCRYPT_OK : PCRYPT_ERROR_IO;
  if (status == PCRYPT_OK) status = pcrypt_credentials_add_identity_file(by, identity_file);
  if (status == PCRYPT_OK) status = pcrypt_file_open(file, source);
  if (status == PCRYPT_OK) status = pcrypt_file_unlock(*file, by);
  caught(status, why);
  pcrypt_source_free(source);
  pcrypt_credentials_free(by);
  return status;
}

static int read_at(const pcrypt_file* file, uint64_t offset, void* buffer, size_t size, size_t* got,
                   failure* why) {
  return caught(pcrypt_file_read_at(file, offset, buffer, size, got), why);
}

static int plaintext_size(const pcrypt_file* file, uint64_t* size, failure* why) {
  return caught(pcrypt_file_plaintext_size(file, size), why);
}
*/
import "C"

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"unsafe"
)

// Error is a libpcrypt failure: its code (<pcrypt/errors.h>), the code's stable name, and words for people.
type Error struct {
	Code    int
	Message string
	Hint    string
}

func (e *Error) Name() string { return C.GoString(C.pcrypt_error_code_name(C.int(e.Code))) }

func (e *Error) Error() string { return e.Message + " (" + e.Name() + ")" }

func failed(why *C.failure) error {
	return &Error{Code: int(why.code), Message: C.GoString(&why.message[0]), Hint: C.GoString(&why.hint[0])}
}

// File is an unlocked encrypted file whose plaintext reads at any offset, from any number of goroutines.
type File struct{ file *C.pcrypt_file }

func Open(identityFile, path string) (*File, error) {
	cIdentity, cPath := C.CString(identityFile), C.CString(path)
	defer C.free(unsafe.Pointer(cIdentity))
	defer C.free(unsafe.Pointer(cPath))
	var why C.failure
	f := &File{}
	if C.open_unlocked(cIdentity, cPath, &f.file, &why) != C.PCRYPT_OK {
		C.pcrypt_file_free(f.file)
		return nil, failed(&why)
	}
	return f, nil
}

func (f *File) Close() { C.pcrypt_file_free(f.file) }

// Size is the plaintext's size, authenticated (a file cut short is an error here, not a shorter file).
func (f *File) Size() (int64, error) {
	var size C.uint64_t
	var why C.failure
	if C.plaintext_size(f.file, &size, &why) != C.PCRYPT_OK {
		return 0, failed(&why)
	}
	return int64(size), nil
}

// ReadAt is io.ReaderAt: fewer bytes than asked only at the end of the plaintext, with io.EOF.
func (f *File) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("negative offset")
	}
	if len(p) == 0 {
		return 0, nil
	}
	var got C.size_t
	var why C.failure
	if C.read_at(f.file, C.uint64_t(off), unsafe.Pointer(&p[0]), C.size_t(len(p)), &got, &why) != C.PCRYPT_OK {
		return 0, failed(&why)
	}
	if int(got) < len(p) {
		return int(got), io.EOF
	}
	return int(got), nil
}

// exitCode is what the program exits with for a failure, chosen by its code: the distinctions a caller of
// libpcrypt can make only with codes (a wrong key is not a damaged file, a cut file not a modified one).
func exitCode(err error) int {
	var e *Error
	if !errors.As(err, &e) {
		return 1
	}
	switch e.Code {
	case C.PCRYPT_E_NO_IDENTITY_MATCHED, C.PCRYPT_E_UNHANDLED_STANZA, C.PCRYPT_E_WRONG_CREDENTIAL:
		return 3 // another identity may open it
	case C.PCRYPT_E_TRUNCATED:
		return 4 // cut short: a complete copy may exist
	case C.PCRYPT_E_DAMAGED_RECORD:
		return 5 // modified or damaged
	case C.PCRYPT_E_NOT_ENCRYPTED, C.PCRYPT_E_EMPTY_INPUT:
		return 6 // not an encrypted file at all
	case C.PCRYPT_E_PAST_THE_END:
		return 7
	}
	return 1
}

func run() error {
	if len(os.Args) != 5 {
		return errors.New("usage: age_range IDENTITY-FILE ENCRYPTED-FILE OFFSET LENGTH")
	}
	offset, err := strconv.ParseInt(os.Args[3], 10, 64)
	if err != nil {
		return err
	}
	length, err := strconv.ParseInt(os.Args[4], 10, 64)
	if err != nil {
		return err
	}
	f, err := Open(os.Args[1], os.Args[2])
	if err != nil {
		return err
	}
	defer f.Close()
	size, err := f.Size()
	if err != nil {
		return err
	}
	if offset > size {
		return &Error{Code: C.PCRYPT_E_PAST_THE_END, Message: fmt.Sprintf("offset %d is past the end (%d bytes)", offset, size)}
	}
	_, err = io.Copy(os.Stdout, io.NewSectionReader(f, offset, length))
	return err
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "age_range:", err)
		var e *Error
		if errors.As(err, &e) && e.Hint != "" {
			fmt.Fprintln(os.Stderr, "age_range: hint:", e.Hint)
		}
		os.Exit(exitCode(err))
	}
}
