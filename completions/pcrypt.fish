# fish completion for pcrypt(1). Installed as share/fish/vendor_completions.d/pcrypt.fish.
# The option lists mirror `pcrypt [COMMAND] --help`; tests/cli/test_completions.sh fails when they drift.

set -l commands encrypt decrypt verify keygen recipient info rekey mount unmount bench help
set -l experiments keystream throughput engines
set -l engines vaes512 vaes aesni armce sodium portable

complete -c pcrypt -f

# Top level (-q/-v are also accepted after the subcommand).
complete -c pcrypt -n "not __fish_seen_subcommand_from $commands" -s h -l help -d 'Print help and exit'
complete -c pcrypt -n "not __fish_seen_subcommand_from $commands" -s V -l version -d 'Print version and engines'
complete -c pcrypt -n "not __fish_seen_subcommand_from bench" -s q -l quiet -d 'Print only errors'
complete -c pcrypt -n "not __fish_seen_subcommand_from bench" -s v -l verbose -d 'Also report engine, threads, chunk size, throughput'
complete -c pcrypt -n "not __fish_seen_subcommand_from $commands" -a encrypt -d 'Encrypt FILE (or standard input)'
complete -c pcrypt -n "not __fish_seen_subcommand_from $commands" -a decrypt -d 'Decrypt FILE (or standard input)'
complete -c pcrypt -n "not __fish_seen_subcommand_from $commands" -a verify -d 'Authenticate an encrypted file, writing nothing'
complete -c pcrypt -n "not __fish_seen_subcommand_from $commands" -a keygen -d 'Generate a random key file or identity'
complete -c pcrypt -n "not __fish_seen_subcommand_from $commands" -a recipient -d 'Print the public key of each identity'
complete -c pcrypt -n "not __fish_seen_subcommand_from $commands" -a info -d "Describe an encrypted file's header"
complete -c pcrypt -n "not __fish_seen_subcommand_from $commands" -a rekey -d 'Add or remove key slots'
complete -c pcrypt -n "not __fish_seen_subcommand_from $commands" -a mount -d 'Show encrypted files decrypted, read-only, in a folder (FUSE)'
complete -c pcrypt -n "not __fish_seen_subcommand_from $commands" -a unmount -d 'Unmount a pcrypt mount'
complete -c pcrypt -n "not __fish_seen_subcommand_from $commands" -a bench -d 'Measure encryption speed'
complete -c pcrypt -n "not __fish_seen_subcommand_from $commands" -a help -d 'Describe pcrypt or one command'

# help COMMAND
complete -c pcrypt -n "__fish_seen_subcommand_from help" -x -a 'encrypt decrypt verify keygen recipient info rekey mount unmount bench'

# encrypt, decrypt, verify and rekey (the options they share)
set -l crypt "__fish_seen_subcommand_from encrypt decrypt"
set -l opening "__fish_seen_subcommand_from encrypt decrypt verify rekey"
set -l limits "__fish_seen_subcommand_from decrypt verify rekey"
complete -c pcrypt -n "__fish_seen_subcommand_from encrypt decrypt verify rekey recipient" -F -d 'File'
complete -c pcrypt -n "$opening recipient" -s h -l help -d 'Print help and exit'
complete -c pcrypt -n "$crypt rekey" -s o -l output -r -F -d "Output file ('-': standard output)"
complete -c pcrypt -n "$crypt rekey" -s f -l force -d 'Overwrite an existing output file'
complete -c pcrypt -n $crypt -l progress -d 'Show progress even when standard error is not a terminal'
complete -c pcrypt -n $opening -s k -l key -r -F -d 'Key file (repeatable)'
complete -c pcrypt -n $opening -s p -l passphrase -d 'Use a passphrase'
complete -c pcrypt -n $opening -l passphrase-file -r -F -d 'Read the passphrase from the first line of FILE'
complete -c pcrypt -n $opening -s j -l threads -x -d 'Worker threads'
complete -c pcrypt -n "$crypt verify" -l engine -x -a "$engines" -d 'AES engine'
complete -c pcrypt -n $limits -l max-kdf-memory -x -d 'Refuse slots needing more Argon2id memory'
complete -c pcrypt -n $limits -l max-kdf-ops -x -d 'Refuse slots with more passes'
complete -c pcrypt -n "__fish_seen_subcommand_from encrypt" -s r -l recipient -x -d 'Encrypt to a public key (age1..., ssh-ed25519 or ssh-rsa)'
complete -c pcrypt -n "__fish_seen_subcommand_from encrypt" -s R -l recipients-file -r -F -d 'Encrypt to every recipient in FILE'
complete -c pcrypt -n "__fish_seen_subcommand_from encrypt" -l chunk-size -x -d 'Plaintext bytes per chunk, e.g. 64KiB'
complete -c pcrypt -n "__fish_seen_subcommand_from encrypt rekey" -l kdf-memory -x -d 'Argon2id memory, e.g. 256MiB'
complete -c pcrypt -n "__fish_seen_subcommand_from encrypt rekey" -l kdf-ops -x -d 'Argon2id passes'
complete -c pcrypt -n "__fish_seen_subcommand_from encrypt decrypt verify rekey info" -s i -l identity -r -F -d 'Identity file (repeatable)'
complete -c pcrypt -n "__fish_seen_subcommand_from decrypt verify" -l plugin -x -d 'Open age files with the default identity of age-plugin-NAME'
complete -c pcrypt -n "__fish_seen_subcommand_from decrypt verify rekey" -l max-work-factor -x -d 'age files: refuse scrypt work factors above 2^N'
complete -c pcrypt -n "__fish_seen_subcommand_from encrypt decrypt verify" -l format -x -a "pcrypt age cobblestone-128 cobblestone-256" -d 'File format'
complete -c pcrypt -n "__fish_seen_subcommand_from encrypt decrypt verify" -l raw-key -r -F -d 'cobblestone formats: file of the 16- or 32-byte input key'
complete -c pcrypt -n "__fish_seen_subcommand_from encrypt decrypt verify" -l context -x -d 'cobblestone formats: the context, as UTF-8 text'
complete -c pcrypt -n "__fish_seen_subcommand_from encrypt decrypt verify" -l context-file -r -F -d 'cobblestone formats: the context as the bytes of FILE'
complete -c pcrypt -n "__fish_seen_subcommand_from encrypt" -s a -l armor -d 'With --format age: ASCII armor'
complete -c pcrypt -n "__fish_seen_subcommand_from decrypt" -l offset -x -d 'Output plaintext from this byte on'
complete -c pcrypt -n "__fish_seen_subcommand_from decrypt" -l length -x -d 'Output at most this many plaintext bytes'

# rekey's own options
set -l rekey "__fish_seen_subcommand_from rekey"
complete -c pcrypt -n $rekey -l add-key -r -F -d 'Add a slot for this key file'
complete -c pcrypt -n $rekey -l add-recipient -x -d 'Add a slot for this recipient (age1..., ssh-ed25519 or ssh-rsa)'
complete -c pcrypt -n $rekey -l add-recipients-file -r -F -d 'Add a slot for every recipient in FILE'
complete -c pcrypt -n $rekey -l add-passphrase -d 'Add a passphrase slot'
complete -c pcrypt -n $rekey -l add-passphrase-file -r -F -d 'Read the new passphrase from the first line of FILE'
complete -c pcrypt -n $rekey -l remove-slot -x -d "Remove slot N (as 'pcrypt info' numbers them)"
complete -c pcrypt -n $rekey -l remove-key -r -F -d 'Remove the slots this key file or identity opens'
complete -c pcrypt -n $rekey -l remove-recipient -x -d 'Remove the slot of this SSH public key'
complete -c pcrypt -n $rekey -l new-file-key -d 'Re-encrypt under a fresh file key (revokes every other slot)'
complete -c pcrypt -n $rekey -s r -l recipient -x -d 'With --new-file-key: a recipient of the new file (the whole list)'
complete -c pcrypt -n $rekey -s R -l recipients-file -r -F -d 'With --new-file-key: every recipient in FILE (the whole list)'

# mount and unmount
set -l mount "__fish_seen_subcommand_from mount"
complete -c pcrypt -n "__fish_seen_subcommand_from mount unmount" -F -d 'File or folder'
complete -c pcrypt -n "__fish_seen_subcommand_from mount unmount" -s h -l help -d 'Print help and exit'
complete -c pcrypt -n $mount -s k -l key -r -F -d 'Key file (repeatable)'
complete -c pcrypt -n $mount -s p -l passphrase -d 'Use a passphrase'
complete -c pcrypt -n $mount -l passphrase-file -r -F -d 'Read the passphrase from the first line of FILE'
complete -c pcrypt -n $mount -s i -l identity -r -F -d 'Identity file (repeatable)'
complete -c pcrypt -n $mount -l ssh-key-passphrase-file -r -F -d 'Read the passphrase of protected SSH keys from FILE'
complete -c pcrypt -n $mount -l plugin -x -d 'Open age files with the default identity of age-plugin-NAME'
complete -c pcrypt -n $mount -s j -l threads -x -d 'Read-ahead worker threads'
complete -c pcrypt -n $mount -l engine -x -a "$engines" -d 'AES engine'
complete -c pcrypt -n $mount -l max-kdf-memory -x -d 'Refuse slots needing more Argon2id memory'
complete -c pcrypt -n $mount -l max-kdf-ops -x -d 'Refuse slots with more passes'
complete -c pcrypt -n $mount -l max-work-factor -x -d 'age files: refuse scrypt work factors above 2^N'
complete -c pcrypt -n $mount -s f -l foreground -d 'Stay in the foreground until unmounted'
complete -c pcrypt -n $mount -l allow-other -d 'Let other users read the mount too'

# keygen
complete -c pcrypt -n "__fish_seen_subcommand_from keygen" -s h -l help -d 'Print help and exit'
complete -c pcrypt -n "__fish_seen_subcommand_from keygen" -s o -l output -r -F -d 'Key file to create'
complete -c pcrypt -n "__fish_seen_subcommand_from keygen" -s f -l force -d 'Overwrite an existing key file'
complete -c pcrypt -n "__fish_seen_subcommand_from keygen" -l identity -d 'Generate an X25519 identity (age format) instead'
complete -c pcrypt -n "__fish_seen_subcommand_from keygen" -l pq -d 'Generate a post-quantum ML-KEM-768 + X25519 identity (age 1.3)'
complete -c pcrypt -n "__fish_seen_subcommand_from keygen" -l raw -x -a "16 32" -d 'Generate a raw key of N bytes for the cobblestone formats'

# info
complete -c pcrypt -n "__fish_seen_subcommand_from info" -F -d 'Encrypted file'
complete -c pcrypt -n "__fish_seen_subcommand_from info" -s h -l help -d 'Print help and exit'
complete -c pcrypt -n "__fish_seen_subcommand_from info" -l engines -d 'List the AES and ChaCha20-Poly1305 engines'
complete -c pcrypt -n "__fish_seen_subcommand_from info" -l json -d 'One JSON object per file, for scripts'
complete -c pcrypt -n "$crypt verify" -l json -d 'A JSON summary of each file on standard error'
complete -c pcrypt -n "__fish_seen_subcommand_from info" -s k -l key -r -F -d 'Say which slot this key file opens'
complete -c pcrypt -n "__fish_seen_subcommand_from info" -s p -l passphrase -d 'Say which slot a passphrase opens'
complete -c pcrypt -n "__fish_seen_subcommand_from info" -l passphrase-file -r -F -d 'Read that passphrase from FILE'
complete -c pcrypt -n "__fish_seen_subcommand_from decrypt verify rekey info" -l ssh-key-passphrase-file -r -F -d 'Read the passphrase of protected SSH keys from FILE'

# bench and its experiments
set -l bench_only "__fish_seen_subcommand_from bench; and not __fish_seen_subcommand_from $experiments"
complete -c pcrypt -n $bench_only -s h -l help -d 'Print help and exit'
complete -c pcrypt -n $bench_only -l format -x -a 'table markdown csv json' -d 'Output format'
complete -c pcrypt -n $bench_only -l quick -d 'Small sizes, few samples'
complete -c pcrypt -n $bench_only -l max-samples -x -d 'Timed samples per case at most'
complete -c pcrypt -n $bench_only -l max-time -x -d 'Seconds of timed samples per case at most'
complete -c pcrypt -n $bench_only -l warmups -x -d 'Untimed warm-up runs per case'
complete -c pcrypt -n $bench_only -l engine -x -a "$engines" -d 'AES engine'
complete -c pcrypt -n $bench_only -a keystream -d 'AES-CTR keystream with XOR loops'
complete -c pcrypt -n $bench_only -a throughput -d 'Encrypt + decrypt through the pipeline'
complete -c pcrypt -n $bench_only -a engines -d 'Portable vs hardware AES'
set -l in_bench "__fish_seen_subcommand_from bench; and __fish_seen_subcommand_from"
complete -c pcrypt -n "$in_bench $experiments" -s h -l help -d 'Print help and exit'
complete -c pcrypt -n "$in_bench keystream" -l data-size -x -d 'Data per sample, multiple of 4 MiB'
complete -c pcrypt -n "$in_bench throughput" -l sizes -x -d 'Data sizes'
complete -c pcrypt -n "$in_bench throughput" -l runs -x -d 'Runs per configuration'
complete -c pcrypt -n "$in_bench throughput" -s j -l threads -x -d 'Worker thread counts to sweep'
complete -c pcrypt -n "$in_bench throughput" -l chunk-size -x -d 'Chunk sizes to sweep'
complete -c pcrypt -n "$in_bench throughput" -l dir -x -a '(__fish_complete_directories)' -d 'Also run through real files here'
complete -c pcrypt -n "$in_bench engines" -l msg-sizes -x -d 'Message sizes'
