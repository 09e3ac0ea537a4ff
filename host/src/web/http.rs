//! The little HTTP/1.1 the page needs, over a loopback TCP stream: a request read with
//! caps on its size, the guard every request passes (the token, the Host header against
//! DNS rebinding, the Origin against other sites), and plain responses.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::TcpStream;

/// The longest request head read (request line and headers).
const HEAD_CAP: usize = 16 * 1024;
/// The longest body read.
const BODY_CAP: usize = 64 * 1024;

/// One request.
#[derive(Debug)]
pub struct Request {
    /// `GET` or `POST`.
    pub method: String,
    /// The path, without the query.
    pub path: String,
    /// The query's `key=value` pairs, undecoded (the values the page sends need none).
    pub query: Vec<(String, String)>,
    /// Header names in lower case, and values.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl Request {
    /// The value of query parameter `name`.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.query.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// The value of header `name` (lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

/// Reads the next request from `reader`; `None` when the peer closed the connection.
pub fn read(reader: &mut BufReader<TcpStream>) -> io::Result<Option<Request>> {
    let mut head = Vec::new();
    loop {
        let mut line = Vec::new();
        let read = reader.by_ref().take(HEAD_CAP as u64).read_until(b'\n', &mut line)?;
        if read == 0 {
            return if head.is_empty() {
                Ok(None)
            } else {
                Err(io::Error::new(io::ErrorKind::UnexpectedEof, "request cut short"))
            };
        }
        if line == b"\r\n" || line == b"\n" {
            if head.is_empty() {
                continue;
            }
            break;
        }
        head.extend_from_slice(&line);
        if head.len() > HEAD_CAP {
            return Err(io::Error::new(io::ErrorKind::InvalidData, "request head too long"));
        }
    }
    let head = String::from_utf8(head).map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8"))?;
    let mut lines = head.lines();
    let mut first = lines.next().unwrap_or_default().split_whitespace();
    let (Some(method), Some(target)) = (first.next(), first.next()) else {
        return Err(io::Error::new(io::ErrorKind::InvalidData, "bad request line"));
    };
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let query = query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (k.to_string(), v.to_string())
        })
        .collect();
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let length: usize = headers
        .iter()
        .find(|(k, _)| k == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    if length > BODY_CAP {
        return Err(io::Error::new(io::ErrorKind::InvalidData, "body too long"));
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    Ok(Some(Request {
        method: method.to_string(),
        path: path.to_string(),
        query,
        headers,
        body,
    }))
}

/// Why a request is refused before it reaches the game.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The Host header names another host: a page of another site whose name was made
    /// to point at 127.0.0.1 (DNS rebinding).
    Host,
    /// The Origin header names another site.
    Origin,
    /// The token is missing or wrong.
    Token,
}

/// Checks `request` against the server's `port` and `token`: the Host header must be
/// `127.0.0.1:PORT` or `localhost:PORT`, an Origin header (which browsers send on every
/// POST and on cross-site requests) must be this server's, and the token must be given.
pub fn guard(request: &Request, port: u16, token: &str) -> Result<(), Refusal> {
    let ours = [format!("127.0.0.1:{port}"), format!("localhost:{port}")];
    if !request
        .header("host")
        .is_some_and(|host| ours.iter().any(|o| o == host))
    {
        return Err(Refusal::Host);
    }
    if let Some(origin) = request.header("origin") {
        if !ours.iter().any(|o| origin == format!("http://{o}")) {
            return Err(Refusal::Origin);
        }
    } else if request.method == "POST" {
        return Err(Refusal::Origin);
    }
    let given = request.param("token").unwrap_or_default();
    // Compared in full whatever the first difference, so timing tells nothing.
    let same = given.len() == token.len() && given.bytes().zip(token.bytes()).fold(0, |d, (a, b)| d | (a ^ b)) == 0;
    if !same {
        return Err(Refusal::Token);
    }
    Ok(())
}

/// Writes a complete response.
pub fn respond(stream: &mut TcpStream, status: &str, kind: &str, body: &[u8]) -> io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)?;
    stream.flush()
}

/// A token of 128 bits from the operating system's random source, in hexadecimal.
pub fn token() -> io::Result<String> {
    let mut bytes = [0u8; 16];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(method: &str, host: &str, origin: Option<&str>, token: &str) -> Request {
        let mut headers = vec![("host".to_string(), host.to_string())];
        if let Some(origin) = origin {
            headers.push(("origin".to_string(), origin.to_string()));
        }
        Request {
            method: method.to_string(),
            path: "/".to_string(),
            query: vec![("token".to_string(), token.to_string())],
            headers,
            body: Vec::new(),
        }
    }

    #[test]
    fn only_this_servers_host_origin_and_token_pass() {
        let ok = |r: &Request| guard(r, 8123, "abc");
        assert_eq!(ok(&request("GET", "127.0.0.1:8123", None, "abc")), Ok(()));
        assert_eq!(ok(&request("GET", "localhost:8123", None, "abc")), Ok(()));
        assert_eq!(
            ok(&request("POST", "127.0.0.1:8123", Some("http://127.0.0.1:8123"), "abc")),
            Ok(())
        );
        assert_eq!(
            ok(&request("GET", "evil.example:8123", None, "abc")),
            Err(Refusal::Host)
        );
        assert_eq!(ok(&request("GET", "127.0.0.1:9999", None, "abc")), Err(Refusal::Host));
        assert_eq!(
            ok(&request("GET", "127.0.0.1:8123", Some("http://evil.example"), "abc")),
            Err(Refusal::Origin)
        );
        assert_eq!(
            ok(&request("POST", "127.0.0.1:8123", None, "abc")),
            Err(Refusal::Origin)
        );
        assert_eq!(ok(&request("GET", "127.0.0.1:8123", None, "abd")), Err(Refusal::Token));
        assert_eq!(ok(&request("GET", "127.0.0.1:8123", None, "")), Err(Refusal::Token));
    }

    #[test]
    fn tokens_are_random_and_long() {
        let (a, b) = (token().unwrap(), token().unwrap());
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
    }
}
